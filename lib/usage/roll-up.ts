import { LATENCY_BUCKETS_MS, latencyBucket } from "./latency-histogram.ts";
import type { UsageEventInput } from "./usage-event.ts";

/**
 * One row of usage: a key's requests on one UTC day to one route, as the meter rolls events up and
 * writes them to usage_daily. Every usage view (GET /v1/usage, the portal's dashboards) reads these
 * through `readUsage` (reader.ts) and groups them by what was recorded: key, day, area, route.
 */
export type UsageRow = {
  keyId: string;
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  route: string;
  /** The scope of the area that served the route, as the guard recorded it. */
  area: string;
  requests: number;
  /** Every status below 400. */
  ok: number;
  /** Every 4xx, 429 included (also counted in `limited`). */
  client: number;
  server: number;
  limited: number;
  /** The sum of the requests' latencies, in ms. */
  latency: number;
  bytesIn: number;
  bytesOut: number;
  tokens: number;
  /** Requests per latency bucket (LATENCY_BUCKETS_MS, one more for anything slower). */
  latencyHist: number[];
};

/** What a usage row counts, without the key, day, route and area it counts for. */
export type UsageSums = Omit<UsageRow, "keyId" | "day" | "route" | "area">;

/** Nothing counted yet, with the given latency histogram to add into. */
export function noUsage(latencyHist: number[]): UsageSums {
  return {
    requests: 0,
    ok: 0,
    client: 0,
    server: 0,
    limited: 0,
    latency: 0,
    bytesIn: 0,
    bytesOut: 0,
    tokens: 0,
    latencyHist,
  };
}

/** Calls to one model of a provider by a key on one UTC day (usage_daily_model); model "" when none was named. */
export type ModelUsageRow = ProviderUsageRow & { model: string };

/** Calls to one language-model provider by a key on one UTC day (usage_daily_provider). */
export type ProviderUsageRow = {
  keyId: string;
  day: string;
  provider: string;
  requests: number;
  prompt: number;
  completion: number;
};

const DAY_MS = 86_400_000;

/**
 * Finds the row of an event's group, by key, UTC day and one more field, making it on first sight.
 * A flush rolls up every event of the last second (15,000 under load) in one synchronous pass, so the
 * group is found without formatting a date per event (the day is a number; its YYYY-MM-DD is made once
 * a group), and a run of events of the same group, the common case, skips the lookup altogether.
 */
function grouper<R>(make: (e: UsageEventInput, day: string) => R, field: (e: UsageEventInput) => string) {
  const rows = new Map<string, R>();
  let last: R | undefined;
  let lastKey = "";
  let lastField = "";
  let lastDay = -1;
  return {
    rows,
    of(e: UsageEventInput): R {
      const day = Math.floor(e.at.getTime() / DAY_MS);
      const f = field(e);
      if (last !== undefined && day === lastDay && e.keyId === lastKey && f === lastField) return last;
      const id = `${e.keyId}\u0000${day}\u0000${f}`;
      let r = rows.get(id);
      if (r === undefined) {
        r = make(e, new Date(day * DAY_MS).toISOString().slice(0, 10));
        rows.set(id, r);
      }
      last = r;
      lastKey = e.keyId;
      lastField = f;
      lastDay = day;
      return r;
    },
  };
}

/**
 * Sums events per key, UTC day and route (a route has one area): the rows written to usage_daily,
 * which every usage view reads (lib/usage/reader.ts) instead of raw events.
 */
export function rollUp(events: readonly UsageEventInput[]): UsageRow[] {
  const groups = grouper<UsageRow>(
    (e, day) => ({
      keyId: e.keyId,
      day,
      route: e.route,
      area: e.area,
      ...noUsage(new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0)),
    }),
    (e) => e.route,
  );
  for (const e of events) {
    const r = groups.of(e);
    r.requests += 1;
    if (e.status < 400) r.ok += 1;
    else if (e.status < 500) r.client += 1;
    else r.server += 1;
    if (e.status === 429) r.limited += 1;
    r.latency += Math.round(e.latencyMs);
    r.bytesIn += e.bytesIn;
    r.bytesOut += e.bytesOut;
    r.tokens += (e.promptTokens ?? 0) + (e.completionTokens ?? 0);
    r.latencyHist[latencyBucket(e.latencyMs)]! += 1;
  }
  return [...groups.rows.values()];
}

/** Provider calls and their tokens per key and UTC day (only events that named a provider). */
export function rollUpProviders(events: readonly UsageEventInput[]): ProviderUsageRow[] {
  const groups = grouper<ProviderUsageRow>(
    (e, day) => ({ keyId: e.keyId, day, provider: e.provider!, requests: 0, prompt: 0, completion: 0 }),
    (e) => e.provider!,
  );
  for (const e of events) {
    if (!e.provider) continue;
    const r = groups.of(e);
    r.requests += 1;
    r.prompt += e.promptTokens ?? 0;
    r.completion += e.completionTokens ?? 0;
  }
  return [...groups.rows.values()];
}

/** Provider calls and their tokens per key, UTC day and model (only events that named a provider). */
export function rollUpModels(events: readonly UsageEventInput[]): ModelUsageRow[] {
  const groups = grouper<ModelUsageRow>(
    (e, day) => ({
      keyId: e.keyId,
      day,
      provider: e.provider!,
      model: e.model ?? "",
      requests: 0,
      prompt: 0,
      completion: 0,
    }),
    (e) => `${e.provider}\u0000${e.model ?? ""}`,
  );
  for (const e of events) {
    if (!e.provider) continue;
    const r = groups.of(e);
    r.requests += 1;
    r.prompt += e.promptTokens ?? 0;
    r.completion += e.completionTokens ?? 0;
  }
  return [...groups.rows.values()];
}

/** Uses of one provider feature billed beyond tokens by a key on one UTC day (usage_daily_feature). */
export type FeatureUsageRow = { keyId: string; day: string; provider: string; feature: string; uses: number };

/** Feature uses per key, UTC day, provider and feature (only events that named a provider). */
export function rollUpFeatures(events: readonly UsageEventInput[]): FeatureUsageRow[] {
  const rows = new Map<string, FeatureUsageRow>();
  for (const e of events) {
    if (!e.provider || !e.features) continue;
    const day = e.at.toISOString().slice(0, 10);
    for (const [feature, uses] of Object.entries(e.features)) {
      const id = `${e.keyId}\u0000${day}\u0000${e.provider}\u0000${feature}`;
      const row = rows.get(id);
      if (row) row.uses += uses;
      else rows.set(id, { keyId: e.keyId, day, provider: e.provider, feature, uses });
    }
  }
  return [...rows.values()];
}

/**
 * The response cache of one key on one UTC day for one provider and model (usage_daily_cache): a hit
 * under the provider and model that first gave the answer, with the tokens it did not pay; a miss under
 * the provider that answered.
 */
export type CacheUsageRow = {
  keyId: string;
  day: string;
  provider: string;
  model: string;
  hits: number;
  misses: number;
  savedPrompt: number;
  savedCompletion: number;
};

/** Cache hits and misses per key, UTC day, provider and model (only events that asked for the cache). */
export function rollUpCache(events: readonly UsageEventInput[]): CacheUsageRow[] {
  const rows = new Map<string, CacheUsageRow>();
  for (const e of events) {
    const cache = e.cache;
    if (!cache) continue;
    const hit = cache.state === "hit" ? cache : undefined;
    const provider = hit ? hit.provider : (e.provider ?? "");
    const model = hit ? hit.model : (e.model ?? "");
    const day = e.at.toISOString().slice(0, 10);
    const id = `${e.keyId}\u0000${day}\u0000${provider}\u0000${model}`;
    let row = rows.get(id);
    if (!row) {
      row = { keyId: e.keyId, day, provider, model, hits: 0, misses: 0, savedPrompt: 0, savedCompletion: 0 };
      rows.set(id, row);
    }
    if (hit) {
      row.hits += 1;
      row.savedPrompt += hit.promptTokens;
      row.savedCompletion += hit.completionTokens;
    } else row.misses += 1;
  }
  return [...rows.values()];
}
