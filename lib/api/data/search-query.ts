import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { blankAsAbsent } from "../../gateway/http/schemas.ts";

/** The most results one search asks a source for (and returns), on every search route. */
export const MAX_SEARCH_RESULTS = 100;

const text = (description: string) => blankAsAbsent(z.string().min(1).max(300).optional()).openapi({ description });
// No schema default: a default here would always beat the other form's field.
const count = (description: string) =>
  blankAsAbsent(z.coerce.number().int().min(1).max(MAX_SEARCH_RESULTS).optional()).openapi({
    description: `${description} (1–${MAX_SEARCH_RESULTS})`,
  });

/**
 * The query of every search route: Form A `q` + `limit`, Form B `query` + `max_results`, either
 * field of either form. The generic `/{source}/search` and the source-specific ones share it, so
 * they take the same parameters with the same bounds.
 */
export const SearchQuery = z.object({
  q: text("Search terms (Form A); required unless query is given"),
  query: text("Search terms (Form B)"),
  limit: count("Results wanted (Form A)"),
  max_results: count("Results wanted (Form B)"),
});
export type SearchParams = z.infer<typeof SearchQuery>;

/** The search terms, from either form. */
export function searchTerms(q: Pick<SearchParams, "q" | "query">): string {
  const terms = q.q ?? q.query;
  if (!terms) throw new GatewayError(400, "q (or query) is required");
  return terms;
}

/** The result count asked for, from either form, or the route's default; both forms must agree when both are sent. */
export function searchCount(q: Pick<SearchParams, "limit" | "max_results">, fallback: number): number {
  if (q.limit !== undefined && q.max_results !== undefined && q.limit !== q.max_results) {
    throw new GatewayError(400, `limit (${q.limit}) and max_results (${q.max_results}) disagree: send one of them`);
  }
  return q.limit ?? q.max_results ?? fallback;
}
