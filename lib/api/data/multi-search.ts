import { GatewayError } from "../../errors.ts";
import type { TraceScope } from "../../observability/trace-scope.ts";
import type { UpstreamCache } from "../../upstream/cache.ts";
import { cachedSearch, type DataSource, type SearchRecord } from "../../data-sources/source.ts";

export type SourceOutcome = {
  status: "ok" | "error" | "timeout" | "unavailable";
  count: number;
  ms: number;
  error?: string;
};

/**
 * Searches several sources at once. Each has its own time budget: a slow or failing source is
 * reported (timeout, error, unavailable) and never holds up or fails the others. `trace`: the
 * request's span, which the sources' upstream requests are spans of.
 */
export async function multiSearch(
  sources: DataSource[],
  cache: UpstreamCache,
  query: string,
  limit: number,
  budgetMs: number,
  trace?: TraceScope,
) {
  const results: Record<string, SearchRecord[]> = {};
  const status: Record<string, SourceOutcome> = {};
  await Promise.all(
    sources.map(async (source) => {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), budgetMs)));
      try {
        const outcome = await Promise.race([cachedSearch(source, cache, query, limit, trace), timeout]);
        const ms = Math.round(performance.now() - started);
        if (outcome === "timeout") {
          results[source.name] = [];
          status[source.name] = { status: "timeout", count: 0, ms, error: `no answer within ${budgetMs} ms` };
          return;
        }
        results[source.name] = outcome;
        status[source.name] = { status: "ok", count: results[source.name]!.length, ms };
      } catch (err) {
        const ms = Math.round(performance.now() - started);
        results[source.name] = [];
        const gateway = err instanceof GatewayError ? err : undefined;
        status[source.name] = {
          status: gateway?.status === 503 ? "unavailable" : "error",
          count: 0,
          ms,
          error: gateway?.message ?? "search failed",
        };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { results, status };
}
