import fs from "node:fs";
import path from "node:path";
import { GatewayError } from "../../errors.ts";
import type { UpstreamCache } from "../../upstream/cache.ts";
import { UpstreamClient, type UpstreamOptions, type UpstreamRequest } from "../../upstream/client.ts";

export const LIVE_SOURCES = ["earthquake", "crypto", "airquality"] as const;
export type LiveSourceName = (typeof LIVE_SOURCES)[number];

/** A live answer is served as is for 5 minutes; after that the upstream is asked again. */
export const FRESH_MS = 5 * 60_000;
/** The last good answer is kept for a day, to stand in when the upstream fails. */
export const KEEP_MS = 24 * 3600_000;

type LiveSource = {
  name: LiveSourceName;
  description: string;
  upstream: UpstreamOptions;
  /** Environment variable holding a credential the upstream needs, if any. */
  credential?: string;
  request(credential: string | undefined): UpstreamRequest;
  /** Refuses a 200 answer that is an error in the service's own terms. */
  check?(body: unknown): void;
  /** What the shipped snapshot is, said in every answer that serves it. */
  snapshotNote: string;
};

// A chart waits on this call: one retry and 4 s per attempt keep a hanging upstream to about 8 s
// before the fallback is served (the client's defaults, 3 × 8 s, made it 24 s).
const LIVE_CALL = { timeoutMs: 4_000, retries: 1 } as const;

const SOURCES: Record<LiveSourceName, LiveSource> = {
  earthquake: {
    name: "earthquake",
    description: "Earthquakes of the past day from the USGS GeoJSON summary feed",
    upstream: { name: "usgs", origin: "https://earthquake.usgs.gov", ...LIVE_CALL },
    request: () => ({ path: "/earthquakes/feed/v1.0/summary/all_day.geojson" }),
    check: (body) => {
      if ((body as { type?: unknown }).type !== "FeatureCollection")
        throw new GatewayError(502, "usgs answered with something that is not a GeoJSON FeatureCollection");
    },
    snapshotNote: "shipped snapshot: one real day of the USGS feed from February 2018",
  },
  crypto: {
    name: "crypto",
    description: "The 20 largest cryptocurrencies by market cap from CoinGecko /api/v3/coins/markets (USD)",
    upstream: { name: "finance", origin: "https://api.coingecko.com", ...LIVE_CALL },
    request: () => ({
      path: "/api/v3/coins/markets",
      query: { vs_currency: "usd", order: "market_cap_desc", per_page: 20, page: 1, price_change_percentage: "24h" },
    }),
    check: (body) => {
      if (!Array.isArray(body))
        throw new GatewayError(502, "finance answered with something that is not a list of coins");
    },
    snapshotNote:
      "shipped snapshot: illustrative prices in CoinGecko's format (November 2025 orders of magnitude), not market data",
  },
  airquality: {
    name: "airquality",
    description: "Air quality index of monitoring stations worldwide from WAQI /map/bounds/",
    upstream: { name: "waqi", origin: "https://api.waqi.info", ...LIVE_CALL },
    credential: "WAQI_TOKEN",
    request: (token) => ({ path: "/map/bounds/", query: { latlng: "-60,-180,75,180", networks: "all", token } }),
    check: (body) => {
      const status = (body as { status?: unknown }).status;
      if (status !== "ok") throw new GatewayError(502, `waqi answered status '${String(status)}'`);
    },
    snapshotNote: "shipped snapshot: illustrative readings of twelve city stations in WAQI's format, not measurements",
  },
};

export type LiveAnswer = {
  source: LiveSourceName;
  description: string;
  upstream: { name: string; url: string };
  /** True when this is not a fresh upstream answer: the last good one, or the shipped snapshot. */
  stale: boolean;
  /** True when served from the gateway's cache rather than a call made for this request. */
  cached: boolean;
  snapshot: boolean;
  /** When the upstream gave this answer (ISO 8601); null for the shipped snapshot. */
  fetched_at: string | null;
  note?: string;
  data: unknown;
};

type Kept = { fetched_at: number; data: unknown };

const clients = new Map<string, UpstreamClient>();

// Freshness and the last good answer are ours (kept in the gateway's cache), so the client itself
// does not cache; it still brings timeouts, retries, the breaker and UPSTREAM_<NAME>_URL.
function clientFor(source: LiveSource): UpstreamClient {
  let client = clients.get(source.name);
  if (!client) clients.set(source.name, (client = new UpstreamClient({ ...source.upstream, cacheTtlMs: 0 })));
  return client;
}

const snapshots = new Map<LiveSourceName, unknown>();

/** The shipped snapshot, shaped like the upstream's own answer. */
export function liveSnapshot(name: LiveSourceName): unknown {
  if (!snapshots.has(name)) {
    const file = path.join(process.cwd(), "lib", "api", "datavis", "data", "snapshots", `${name}.json`);
    snapshots.set(name, JSON.parse(fs.readFileSync(/*turbopackIgnore: true*/ file, "utf8")));
  }
  return snapshots.get(name);
}

export function describeLiveSources(): Array<{
  name: LiveSourceName;
  description: string;
  upstream: string;
  credential: string | null;
}> {
  return LIVE_SOURCES.map((name) => ({
    name,
    description: SOURCES[name].description,
    upstream: SOURCES[name].upstream.name,
    credential: SOURCES[name].credential ?? null,
  }));
}

/**
 * Live data for a chart: a fresh upstream answer (reused for 5 minutes), or — when the upstream fails
 * or its credential is missing — the last good answer, or else the shipped snapshot, marked stale.
 * A chart keeps working whatever the upstream does; `stale` and `note` say what the caller got.
 */
export async function fetchLive(
  name: LiveSourceName,
  cache: UpstreamCache,
  now: () => number = Date.now,
  env: Record<string, string | undefined> = process.env,
): Promise<LiveAnswer> {
  const source = SOURCES[name];
  const client = clientFor(source);
  const credential = source.credential ? env[source.credential]?.trim() || undefined : undefined;
  const request = source.request(credential);
  const publicUrl = client.url({ ...request, query: { ...request.query, token: undefined } });
  const base = {
    source: name,
    description: source.description,
    upstream: { name: source.upstream.name, url: publicUrl },
  };
  const key = `datavis:live:${name}`;
  const raw = await cache.get(key);
  const kept = raw === undefined ? undefined : (JSON.parse(raw) as Kept);

  if (kept && now() - kept.fetched_at < FRESH_MS) {
    return {
      ...base,
      stale: false,
      cached: true,
      snapshot: false,
      fetched_at: new Date(kept.fetched_at).toISOString(),
      data: kept.data,
    };
  }
  const fallback = (reason: string): LiveAnswer =>
    kept
      ? {
          ...base,
          stale: true,
          cached: true,
          snapshot: false,
          fetched_at: new Date(kept.fetched_at).toISOString(),
          note: `${reason}; serving the last good answer`,
          data: kept.data,
        }
      : {
          ...base,
          stale: true,
          cached: false,
          snapshot: true,
          fetched_at: null,
          note: `${reason}; serving the ${source.snapshotNote}`,
          data: liveSnapshot(name),
        };

  if (source.credential && !credential) return fallback(`${source.credential} is not set`);
  try {
    const data = await client.get<unknown>(request);
    source.check?.(data);
    const fetchedAt = now();
    await cache.set(key, JSON.stringify({ fetched_at: fetchedAt, data } satisfies Kept), KEEP_MS);
    return {
      ...base,
      stale: false,
      cached: false,
      snapshot: false,
      fetched_at: new Date(fetchedAt).toISOString(),
      data,
    };
  } catch (err) {
    return fallback(err instanceof GatewayError ? err.message : `${source.upstream.name} failed`);
  }
}
