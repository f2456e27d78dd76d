import type { SearchRecord } from "../source.ts";
import type { Edition, SearchDoc } from "./client.ts";

/** A work of a search as a record: up to five ISBNs, the edition count and a cover. */
export const workRecord = (d: SearchDoc): SearchRecord => ({
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
});

/** An edition as `{authors, title, year}` as the spec shows, plus publishers, pages and links; the year is the publish date's first four digits. */
export function bookView(isbn: string, edition: Edition, authors: string[]) {
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
