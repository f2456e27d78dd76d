import { GatewayError } from "../../errors.ts";
import type { DataSource, SearchRecord, SourceContext } from "../source.ts";
import { normaliseIsbn } from "./isbn.ts";

/** An Open Library work (OL…W) or edition (OL…M) id. */
export const OPENLIBRARY_ID = /^OL\d+[WM]$/;

type SearchDoc = {
  key: string;
  title: string;
  author_name?: string[];
  first_publish_year?: number;
  isbn?: string[];
  edition_count?: number;
  cover_i?: number;
};
type Edition = {
  title: string;
  authors?: Array<{ key: string }>;
  publish_date?: string;
  publishers?: string[];
  number_of_pages?: number;
  works?: Array<{ key: string }>;
};

export async function searchBooks(ctx: SourceContext, query: string, limit: number): Promise<SearchRecord[]> {
  const body = await ctx.client.get<{ docs?: SearchDoc[] }>({
    path: "/search.json",
    query: { q: query, limit, fields: "key,title,author_name,first_publish_year,isbn,edition_count,cover_i" },
  });
  return (body.docs ?? []).map((d) => ({
    id: d.key.replace(/^\/works\//, ""),
    title: d.title,
    url: `https://openlibrary.org${d.key}`,
    summary: null,
    authors: d.author_name ?? [],
    published: d.first_publish_year ? String(d.first_publish_year) : null,
    source: "openlibrary",
    extra: {
      isbn: d.isbn?.slice(0, 5) ?? [],
      edition_count: d.edition_count ?? null,
      cover: d.cover_i ? `https://covers.openlibrary.org/b/id/${d.cover_i}-M.jpg` : null,
    },
  }));
}

/** A book by ISBN: `{authors, title, year}` as the spec shows, plus publishers, pages and links. */
export async function bookByIsbn(ctx: SourceContext, raw: string) {
  const isbn = normaliseIsbn(raw);
  if (!isbn) throw new GatewayError(400, `'${raw}' is not a valid ISBN-10 or ISBN-13 (check digit included)`);
  const edition = await ctx.client.get<Edition>({ path: `/isbn/${isbn}.json` });
  const authors = await Promise.all(
    (edition.authors ?? []).map(
      async (a) =>
        (await ctx.client.get<{ name?: string }>({ path: `${a.key}.json` }).catch(() => ({ name: undefined }))).name ??
        a.key,
    ),
  );
  const year = edition.publish_date?.match(/\d{4}/)?.[0];
  return {
    isbn,
    title: edition.title,
    authors,
    year: year ? Number(year) : null,
    publishers: edition.publishers ?? [],
    pages: edition.number_of_pages ?? null,
    url: `https://openlibrary.org/isbn/${isbn}`,
    cover: `https://covers.openlibrary.org/b/isbn/${isbn}-M.jpg`,
  };
}

export const openlibrary: DataSource = {
  name: "openlibrary",
  description: "Open Library: books by title, author or subject, and editions by ISBN",
  upstream: { name: "openlibrary", origin: "https://openlibrary.org", cacheTtlMs: 60 * 60_000 },
  search: searchBooks,
  async get(ctx, id) {
    if (normaliseIsbn(id)) return bookByIsbn(ctx, id);
    if (!OPENLIBRARY_ID.test(id))
      throw new GatewayError(400, `'${id}' is not an Open Library work id (OL…W), edition id (OL…M) or ISBN`);
    return ctx.client.get({ path: `/${id.endsWith("W") ? "works" : "books"}/${id}.json` });
  },
};
