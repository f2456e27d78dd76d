import { htmlToPlain } from "../../text/html-to-plain.ts";
import type { SearchRecord } from "../source.ts";
import type { SearchResponse, Summary } from "./client.ts";

const pageUrl = (title: string) => `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, "_"))}`;

/** Search hits as records, their HTML snippets as plain text. */
export const searchRecords = (body: SearchResponse): SearchRecord[] =>
  (body.query?.search ?? []).map((hit) => ({
    id: hit.title,
    title: hit.title,
    url: pageUrl(hit.title),
    summary: hit.snippet ? htmlToPlain(hit.snippet) : null,
    published: hit.timestamp ?? null,
    source: "wikipedia",
    extra: { pageid: hit.pageid },
  }));

/** A page summary as `{title, extract, thumbnail}` as the spec shows, plus description and url. */
export const summaryView = (s: Summary) => ({
  title: s.title,
  extract: s.extract ?? "",
  thumbnail: s.thumbnail?.source ?? null,
  description: s.description ?? null,
  url: s.content_urls?.desktop?.page ?? pageUrl(s.title),
});
