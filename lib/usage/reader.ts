import type { Database } from "../db/client.ts";
import {
  type CacheUsageRow,
  type ModelUsageRow,
  noUsage,
  type ProviderUsageRow,
  rollUp,
  type UsageRow,
  type UsageSums,
} from "./roll-up.ts";
import type { UsageEventInput } from "./usage-event.ts";

export type { CacheUsageRow, ModelUsageRow, ProviderUsageRow, UsageRow, UsageSums } from "./roll-up.ts";

export type UsageFilter = {
  keyIds: readonly string[];
  /** The first UTC day read, YYYY-MM-DD. */
  from: string;
  /** The last UTC day read, YYYY-MM-DD; none: every day from `from` on. */
  to?: string;
  /** Events this instance recorded and has not written yet, to count as if they were (their keys' only). */
  pending?: readonly UsageEventInput[];
};

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const whereOf = ({ keyIds, from, to }: UsageFilter) => ({
  keyId: { in: [...keyIds] },
  day: { gte: new Date(`${from}T00:00:00Z`), ...(to && { lte: new Date(`${to}T00:00:00Z`) }) },
});

/** The keys' usage rows from `from` (to `to`): the daily rollups, then the pending events rolled up the same way. */
export async function readUsage(db: Database, filter: UsageFilter): Promise<UsageRow[]> {
  const stored = await db.prisma.usageDaily.findMany({
    where: whereOf(filter),
    orderBy: [{ keyId: "asc" }, { day: "asc" }, { route: "asc" }],
  });
  const keys = new Set(filter.keyIds);
  return [
    ...stored.map((r) => ({
      keyId: r.keyId,
      day: dayOf(r.day),
      route: r.route,
      area: r.area,
      requests: r.requests,
      ok: r.status2xx,
      client: r.status4xx,
      server: r.status5xx,
      limited: r.status429,
      latency: Number(r.latencyMsSum),
      bytesIn: Number(r.bytesIn),
      bytesOut: Number(r.bytesOut),
      tokens: Number(r.tokens),
      latencyHist: r.latencyHist ?? [],
    })),
    ...rollUp((filter.pending ?? []).filter((e) => keys.has(e.keyId))).filter(
      (r) => r.day >= filter.from && (!filter.to || r.day <= filter.to),
    ),
  ];
}

/** The keys' provider calls and tokens in the filter's days (written rollups only). */
export async function readProviderUsage(
  db: Database,
  filter: Omit<UsageFilter, "pending">,
): Promise<ProviderUsageRow[]> {
  const stored = await db.prisma.usageDailyProvider.findMany({ where: whereOf(filter) });
  return stored.map((r) => ({
    keyId: r.keyId,
    day: dayOf(r.day),
    provider: r.provider,
    requests: r.requests,
    prompt: Number(r.promptTokens),
    completion: Number(r.completionTokens),
  }));
}

/** The keys' calls and tokens per provider and model in the filter's days (written rollups only). */
export async function readModelUsage(db: Database, filter: Omit<UsageFilter, "pending">): Promise<ModelUsageRow[]> {
  const stored = await db.prisma.usageDailyModel.findMany({ where: whereOf(filter) });
  return stored.map((r) => ({
    keyId: r.keyId,
    day: dayOf(r.day),
    provider: r.provider,
    model: r.model,
    requests: r.requests,
    prompt: Number(r.promptTokens),
    completion: Number(r.completionTokens),
  }));
}

/** The keys' response cache hits, misses and saved tokens per provider and model in the filter's days (written rollups only). */
export async function readCacheUsage(db: Database, filter: Omit<UsageFilter, "pending">): Promise<CacheUsageRow[]> {
  const stored = await db.prisma.usageDailyCache.findMany({ where: whereOf(filter) });
  return stored.map((r) => ({
    keyId: r.keyId,
    day: dayOf(r.day),
    provider: r.provider,
    model: r.model,
    hits: r.hits,
    misses: r.misses,
    savedPrompt: Number(r.savedPromptTokens),
    savedCompletion: Number(r.savedCompletionTokens),
  }));
}

/** The rows added up, latency histograms bucket by bucket. */
export function sumUsage(rows: Iterable<UsageRow>): UsageSums {
  const sums = noUsage([]);
  for (const r of rows) {
    sums.requests += r.requests;
    sums.ok += r.ok;
    sums.client += r.client;
    sums.server += r.server;
    sums.limited += r.limited;
    sums.latency += r.latency;
    sums.bytesIn += r.bytesIn;
    sums.bytesOut += r.bytesOut;
    sums.tokens += r.tokens;
    r.latencyHist.forEach((n, i) => (sums.latencyHist[i] = (sums.latencyHist[i] ?? 0) + n));
  }
  return sums;
}

/** Rows grouped by one of their fields, groups in order of first appearance. */
export function groupUsage<K extends "keyId" | "day" | "route" | "area">(
  rows: Iterable<UsageRow>,
  by: K,
): Map<string, UsageRow[]> {
  const groups = new Map<string, UsageRow[]>();
  for (const r of rows) {
    const group = groups.get(r[by]);
    if (group) group.push(r);
    else groups.set(r[by], [r]);
  }
  return groups;
}
