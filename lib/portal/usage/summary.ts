/*
 * What the usage dashboards receive (from lib/portal/usage/report.ts, on the server) and how they present it:
 * no server imports, so the client dashboard can import this whole module.
 */

/** Disjoint classes that add up to `requests`: `client` is every 4xx but 429, which is `limited` alone. */
export type Counts = { requests: number; ok: number; client: number; server: number; limited: number };

export type UsageReport = {
  /** The period's first and last UTC day (both counted), and how it is said ("Last 30 days"). */
  from: string;
  to: string;
  label: string;
  totals: Counts & { p50_ms: number | null; p95_ms: number | null; tokens: number };
  daily: Array<Counts & { day: string; p50_ms: number | null; p95_ms: number | null }>;
  areas: Array<Counts & { area: string }>;
  providers: Array<{ provider: string; requests: number; prompt_tokens: number; completion_tokens: number }>;
  /** Every route called, with its area: the rows add up to `totals`. */
  routes: Array<Counts & { route: string; area: string; tokens: number }>;
  /**
   * Language-model calls by provider and model ("" when the provider named none), with the cost estimated
   * from the price table (null: the model has no price). The rows add up to `models_total`.
   */
  models: Array<ModelUsage>;
  models_total: {
    requests: number;
    prompt_tokens: number;
    completion_tokens: number;
    cost_usd: number;
    unpriced: number;
  };
  keys: Array<
    Counts & {
      id: string;
      name: string;
      prefix: string;
      owner: string | null;
      /** The key's team; null: its owner's personal space. */
      team_id: string | null;
      kind: string;
      error_rate: number;
      /** The key's language-model tokens and their estimated cost (models without a price add nothing). */
      tokens: number;
      cost_usd: number;
    }
  >;
  /** The response cache: requests that asked for it, answered from it (hits) or by a provider (misses), and what the hits did not pay. */
  cache: CacheSavings;
  latency_buckets_ms: readonly number[];
};

/**
 * Logged requests carrying one tag, for one of its values (null: the values past the listed ones, or a
 * total): failures are every status from 400 on; cost is estimated, leaving out `unpriced` requests.
 */
export type TagUsage = {
  value: string | null;
  requests: number;
  failed: number;
  tokens: number;
  cost_usd: number;
  unpriced: number;
};

/** Usage by a tag: the names the period's requests carry, and the chosen one's values. */
export type TagReport = { names: string[]; name: string | null; rows: TagUsage[]; total: TagUsage | null };

export type CacheSavings = {
  hits: number;
  misses: number;
  saved_prompt_tokens: number;
  saved_completion_tokens: number;
  /** The hits' tokens at the price table's rates for the models that first gave the answers. */
  saved_cost_usd: number;
  /** Hits of models without a price, whose saving is not in saved_cost_usd. */
  unpriced_hits: number;
};

export type ModelUsage = {
  provider: string;
  model: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number | null;
};

export type QuotaNow = {
  id: string;
  name: string;
  prefix: string;
  day: { limit: number; remaining: number; reset: string };
  minute: { limit: number; remaining: number };
};

/**
 * The status classes both request charts stack, in legend order, under one legend: disjoint, so the
 * bars add up to the total, and a 429 is drawn as "429" wherever it appears.
 */
export const STATUS_CLASSES = [
  { dataKey: "ok", name: "2xx/3xx" },
  { dataKey: "client", name: "4xx (not 429)" },
  { dataKey: "limited", name: "429" },
  { dataKey: "server", name: "5xx" },
] as const satisfies ReadonlyArray<{ dataKey: Exclude<keyof Counts, "requests">; name: string }>;

/** Requests that did not succeed: client and server errors and rate-limited calls. */
export function failedRequests(c: Counts): number {
  return c.client + c.server + c.limited;
}

/** A percentile from the histogram, worded as the estimate it is; the open last bucket reads "over". */
export function latencyEstimate(ms: number | null, bucketsMs: readonly number[]): string {
  if (ms === null) return "—";
  const last = bucketsMs[bucketsMs.length - 1] ?? Infinity;
  return ms >= last ? `over ${last / 1000} s` : `≈ ${ms} ms`;
}

/**
 * What the dashboard says about a period in words (charts are hidden from screen readers, so this is
 * their text too): a status breakdown whose parts add up to the total, and estimated percentiles.
 */
export function describeTotals(report: Pick<UsageReport, "totals" | "latency_buckets_ms">): {
  breakdown: string;
  p50: string;
  p95: string;
} {
  const t = report.totals;
  return {
    breakdown: `${t.requests} requests: ${t.ok} succeeded, ${t.client} client errors, ${t.server} server errors, ${t.limited} rate limited.`,
    p50: latencyEstimate(t.p50_ms, report.latency_buckets_ms),
    p95: latencyEstimate(t.p95_ms, report.latency_buckets_ms),
  };
}

/** Estimated dollars, to the cent from $1 and to a hundredth of a cent below; "—" when there is no price. */
export function usd(n: number | null): string {
  if (n === null) return "—";
  // A cost too small to show in four decimals is still a cost: never a "$0.00" beside tokens spent.
  if (n > 0 && n < 0.00005) return "< $0.0001";
  return `$${n.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: n < 1 ? 4 : 2 })}`;
}

/** The response cache's period in a sentence; null when no request asked for it. */
export function cacheSummary(c: CacheSavings): string | null {
  const asked = c.hits + c.misses;
  if (asked === 0) return null;
  const tokens = (c.saved_prompt_tokens + c.saved_completion_tokens).toLocaleString("en");
  const unpriced = c.unpriced_hits ? `, besides ${c.unpriced_hits.toLocaleString("en")} hits of unpriced models` : "";
  return `${c.hits.toLocaleString("en")} of ${asked.toLocaleString("en")} requests that asked for the cache were answered from it (${((c.hits / asked) * 100).toFixed(1)}%): ${tokens} tokens and about ${usd(c.saved_cost_usd)} not paid${unpriced}.`;
}

type KeyCounts = Pick<UsageReport["keys"][number], "requests" | "ok" | "client" | "server" | "limited">;

/** Keys' counts summed per group (a member, a team), groups in order of their requests: they add up to the keys'. */
export function groupKeys<G extends string | null>(
  keys: UsageReport["keys"],
  groupOf: (k: UsageReport["keys"][number]) => G,
): [G, KeyCounts][] {
  const groups = new Map<G, KeyCounts>();
  for (const k of keys) {
    const g = groups.get(groupOf(k)) ?? { requests: 0, ok: 0, client: 0, server: 0, limited: 0 };
    g.requests += k.requests;
    g.ok += k.ok;
    g.client += k.client;
    g.server += k.server;
    g.limited += k.limited;
    groups.set(groupOf(k), g);
  }
  return [...groups].sort((a, b) => b[1].requests - a[1].requests);
}
