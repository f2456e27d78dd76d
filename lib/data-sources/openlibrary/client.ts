import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = {
  name: "openlibrary",
  origin: "https://openlibrary.org",
  cacheTtlMs: 60 * 60_000,
};

/** A work of search.json, with the fields asked for. */
export type SearchDoc = {
  key: string;
  title: string;
  author_name?: string[];
  first_publish_year?: number;
  isbn?: string[];
  edition_count?: number;
  cover_i?: number;
};
/** An edition as /isbn/{isbn}.json sends it. */
export type Edition = {
  title: string;
  authors?: Array<{ key: string }>;
  publish_date?: string;
  publishers?: string[];
  number_of_pages?: number;
  works?: Array<{ key: string }>;
};

export const searchWorks = (ctx: SourceContext, q: string, limit: number) =>
  ctx.client.get<{ docs?: SearchDoc[] }>({
    path: "/search.json",
    query: { q, limit, fields: "key,title,author_name,first_publish_year,isbn,edition_count,cover_i" },
  });

/** isbn must already be normalised (digits and X only). */
export const edition = (ctx: SourceContext, isbn: string) => ctx.client.get<Edition>({ path: `/isbn/${isbn}.json` });

/** An author's name by its key (/authors/OL…A), or undefined when the author cannot be read. */
export const authorName = async (ctx: SourceContext, key: string) =>
  (await ctx.client.get<{ name?: string }>({ path: `${key}.json` }).catch(() => ({ name: undefined }))).name;

/** A work (OL…W) or edition (OL…M) as Open Library sends it. */
export const record = (ctx: SourceContext, id: string) =>
  ctx.client.get<unknown>({ path: `/${id.endsWith("W") ? "works" : "books"}/${id}.json` });
