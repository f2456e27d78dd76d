import { z } from "@hono/zod-openapi";
import type { Call } from "../../gateway/pipeline/call.ts";
import { SearchQuery, searchCount, searchTerms } from "./search-query.ts";
import { JsonText } from "../../gateway/http/json-text.ts";
import { cachedSearchJson, contextFor, type DataSource } from "../../data-sources/source.ts";

// What the generic data routes (./routes.ts) and each source's own (./sources/<name>/routes.ts) share.
export const tags = ["Data sources"];
export const SearchRecordSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    url: z.string().nullable(),
    summary: z.string().nullable(),
    authors: z.array(z.string()).optional(),
    published: z.string().nullable().optional(),
    source: z.string(),
    extra: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("SearchRecord");
export const SearchResult = z.object({
  source: z.string(),
  query: z.string(),
  count: z.number().int(),
  results: z.array(SearchRecordSchema),
});
export const Any = z.record(z.string(), z.unknown());

/** The source's context (its client) on this request's runtime, its upstream requests spans of the request's. */
export const sourceContext = (c: Call, source: DataSource) => contextFor(source, c.runtime.upstreamCache, c.trace);

/**
 * One source's search answer, in the shape every search route shares (SearchResult); the spec's
 * default count differs by route. Its results are spliced in as the cache holds their text, which
 * is byte for byte what serialising them would give.
 */
export async function searchAnswer(
  c: Call,
  source: DataSource,
  q: z.infer<typeof SearchQuery>,
  defaultCount: number,
): Promise<JsonText<z.infer<typeof SearchResult>>> {
  const terms = searchTerms(q);
  const count = searchCount(q, defaultCount);
  const found = await cachedSearchJson(source, c.runtime.upstreamCache, terms, count, c.trace);
  return new JsonText(
    `{"source":${JSON.stringify(source.name)},"query":${JSON.stringify(terms)},"count":${found.count},"results":${found.json}}`,
  );
}
