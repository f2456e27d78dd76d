import { UpstreamClient, type Upstream, type UpstreamOptions } from "../upstream/client.ts";
import { LRUCache } from "lru-cache";
import type { TraceScope } from "../observability/trace-scope.ts";
import type { UpstreamCache } from "../upstream/cache.ts";

/** One search hit, the same shape for every source. */
export type SearchRecord = {
  id: string;
  title: string;
  url: string | null;
  summary: string | null;
  authors?: string[];
  published?: string | null;
  source: string;
  extra?: Record<string, unknown>;
};

export type SourceContext = { client: Upstream };

/**
 * Every data source has this shape: a name, its upstream, and search/get over it. Each lives in
 * lib/data-sources/<name>/ as the same files: client.ts (its upstream options, credentials and one
 * function per upstream call, typed as the upstream documents its payload), normalise.ts (payload →
 * our records and views, plain functions), normalise.test.ts (those on small payloads in the
 * upstream's wire format) and index.ts (this descriptor, and the source's operations: input checks,
 * client, normalise). Its own HTTP endpoints, where it has any, are the data area's
 * (lib/api/data/sources/<name>/routes.ts); its fake upstream is test/fakes/data-sources/<name>.ts.
 * registry.ts finds each by name.
 */
export type DataSource = {
  name: string;
  description: string;
  upstream: UpstreamOptions;
  search(ctx: SourceContext, query: string, limit: number): Promise<SearchRecord[]>;
  get(ctx: SourceContext, id: string): Promise<unknown>;
};

const clients = new WeakMap<UpstreamCache, Map<string, UpstreamClient>>();

/**
 * The source's client on this runtime's cache (one per source, so breakers and coalescing are per
 * source); under `trace` (a traced request's or agent's span) each upstream request is a span of it.
 */
export function contextFor(
  source: Pick<DataSource, "name" | "upstream">,
  cache: UpstreamCache,
  trace?: TraceScope,
): SourceContext {
  let byName = clients.get(cache);
  if (!byName) clients.set(cache, (byName = new Map()));
  let client = byName.get(source.name);
  if (!client) byName.set(source.name, (client = new UpstreamClient(source.upstream, cache)));
  return { client: trace ? client.traced(trace) : client };
}

/** A search's results as the JSON text they are cached as, and the results themselves when at hand. */
type Found = { key: string; json: string; results?: SearchRecord[] };

async function find(
  source: DataSource,
  cache: UpstreamCache,
  query: string,
  limit: number,
  trace: TraceScope | undefined,
): Promise<Found> {
  const ttl = source.upstream.cacheTtlMs ?? 60_000;
  const key = `search:${source.name}:${limit}:${query}`;
  if (ttl > 0) {
    const hit = await cache.get(key);
    if (hit !== undefined) return { key, json: hit };
  }
  // Some upstreams send more than asked (or take no count at all): no route returns more than asked for.
  const results = (await source.search(contextFor(source, cache, trace), query, limit)).slice(0, limit);
  const json = JSON.stringify(results);
  if (ttl > 0) await cache.set(key, json, ttl);
  return { key, json, results };
}

/**
 * A source's normalised search results, at most `limit` of them, cached as they are returned: a hit then costs one small
 * JSON.parse instead of re-reading and re-normalising the upstream body (measured 1.79x a keyed
 * no-op before). Same TTL as the source's upstream cache. `trace`: what its upstream requests are spans of.
 */
export async function cachedSearch(
  source: DataSource,
  cache: UpstreamCache,
  query: string,
  limit: number,
  trace?: TraceScope,
): Promise<SearchRecord[]> {
  const found = await find(source, cache, query, limit, trace);
  return found.results ?? (JSON.parse(found.json) as SearchRecord[]);
}

// How many results a cached text holds, by cache key, while it is the same text: an answer needs the
// count, and parsing the whole text for it on every hit was most of what a hit cost beyond a keyed no-op.
const counts = new LRUCache<string, { json: string; count: number }>({ max: 2_000 });

/**
 * The same search as `cachedSearch`, as the results' JSON text and their count: a cache hit is not
 * parsed (its count is remembered for as long as the cached text stays the same), so an answer can
 * be spliced around the text as it is.
 */
export async function cachedSearchJson(
  source: DataSource,
  cache: UpstreamCache,
  query: string,
  limit: number,
  trace?: TraceScope,
): Promise<{ json: string; count: number }> {
  const { key, json, results } = await find(source, cache, query, limit, trace);
  const known = counts.get(key);
  if (known?.json === json) return known;
  const count = results?.length ?? (JSON.parse(json) as unknown[]).length;
  const entry = { json, count };
  counts.set(key, entry);
  return entry;
}
