import { GatewayError } from "../../errors.ts";
import type { DataSource, SearchRecord, SourceContext } from "../source.ts";
import { authorName, edition, record, searchWorks, upstream } from "./client.ts";
import { normaliseIsbn } from "./isbn.ts";
import { bookView, workRecord } from "./normalise.ts";

/** An Open Library work (OL…W) or edition (OL…M) id. */
export const OPENLIBRARY_ID = /^OL\d+[WM]$/;

export async function searchBooks(ctx: SourceContext, query: string, limit: number): Promise<SearchRecord[]> {
  return ((await searchWorks(ctx, query, limit)).docs ?? []).map(workRecord);
}

/** A book by ISBN, its authors by name (by key where a name cannot be read). */
export async function bookByIsbn(ctx: SourceContext, raw: string) {
  const isbn = normaliseIsbn(raw);
  if (!isbn) throw new GatewayError(400, `'${raw}' is not a valid ISBN-10 or ISBN-13 (check digit included)`);
  const found = await edition(ctx, isbn);
  const authors = await Promise.all((found.authors ?? []).map(async (a) => (await authorName(ctx, a.key)) ?? a.key));
  return bookView(isbn, found, authors);
}

export const openlibrary: DataSource = {
  name: "openlibrary",
  description: "Open Library: books by title, author or subject, and editions by ISBN",
  upstream,
  search: searchBooks,
  async get(ctx, id) {
    if (normaliseIsbn(id)) return bookByIsbn(ctx, id);
    if (!OPENLIBRARY_ID.test(id))
      throw new GatewayError(400, `'${id}' is not an Open Library work id (OL…W), edition id (OL…M) or ISBN`);
    return record(ctx, id);
  },
};
