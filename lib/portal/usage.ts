import { z } from "zod";
import type { Database } from "../db/client.ts";
import { effectiveLimits, toKeyRecord, withConsolePolicy } from "../gateway/keys/record.ts";
import { LATENCY_BUCKETS_MS, latencyPercentile } from "../usage/meter.ts";
import type { Runtime } from "../gateway/runtime/runtime.ts";
import { failedRequests } from "./usage-summary.ts";

/** The usage routes' query: `key` is one of the ids we issue (`key_` + hex), nothing the database could refuse. */
export const usageQuery = z.object({
  key: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/)
    .optional(),
});

export const REPORT_DAYS = 30;

/** Disjoint classes that add up to `requests`: `client` is every 4xx but 429, which is `limited` alone. */
export type Counts = { requests: number; ok: number; client: number; server: number; limited: number };

export type UsageReport = {
  from: string;
  to: string;
  totals: Counts & { p50_ms: number | null; p95_ms: number | null; tokens: number };
  daily: Array<Counts & { day: string; p50_ms: number | null; p95_ms: number | null }>;
  areas: Array<Counts & { area: string }>;
  providers: Array<{ provider: string; requests: number; prompt_tokens: number; completion_tokens: number }>;
  keys: Array<
    Counts & { id: string; name: string; prefix: string; owner: string | null; kind: string; error_rate: number }
  >;
  latency_buckets_ms: readonly number[];
};

const zero = (): Counts => ({ requests: 0, ok: 0, client: 0, server: 0, limited: 0 });

function add(
  target: Counts,
  row: { requests: number; status2xx: number; status4xx: number; status5xx: number; status429: number },
) {
  target.requests += row.requests;
  target.ok += row.status2xx;
  // The rollups count a 429 in status4xx and again in status429; counted once here, as rate limited.
  target.client += row.status4xx - row.status429;
  target.server += row.status5xx;
  target.limited += row.status429;
}

function addHist(target: number[], hist: number[]) {
  hist.forEach((n, i) => (target[i] = (target[i] ?? 0) + n));
}

// Routes whose first path segment is not their area's name.
const AREA_OF_SEGMENT: Record<string, string> = {
  key: "account",
  usage: "account",
  capabilities: "status",
  chat: "llm",
  embeddings: "llm",
  models: "llm",
};

/** `/v1/llm/chat` → `llm`: the spec area a route belongs to (scopes use the same names). */
export function routeArea(route: string): string {
  const parts = route.split("/").filter(Boolean);
  if (parts[0] !== "v1") return parts[0] ?? "other";
  const segment = parts[1];
  if (!segment || segment.startsWith(":")) return "status";
  return AREA_OF_SEGMENT[segment] ?? segment;
}

export type ReportScope = { owner?: string; keyId?: string };

/**
 * Usage over the last 30 UTC days, from the daily rollups only (never the raw events): for one
 * user's keys (owner), one key, or every key (neither).
 */
export async function usageReport(db: Database, { owner, keyId }: ReportScope, now = new Date()): Promise<UsageReport> {
  const to = now.toISOString().slice(0, 10);
  const fromDate = new Date(`${to}T00:00:00Z`);
  fromDate.setUTCDate(fromDate.getUTCDate() - (REPORT_DAYS - 1));
  const from = fromDate.toISOString().slice(0, 10);

  const keys = await db.prisma.apiKey.findMany({
    where: { ...(owner ? { userId: owner } : {}), ...(keyId ? { id: keyId } : {}) },
    include: { user: { select: { email: true } } },
  });
  const keyIds = keys.map((k) => k.id);
  const where = { keyId: { in: keyIds }, day: { gte: fromDate } };
  const [rows, providerRows] = await Promise.all([
    db.prisma.usageDaily.findMany({ where }),
    db.prisma.usageDailyProvider.findMany({ where }),
  ]);

  const days = new Map<string, Counts & { hist: number[] }>();
  for (let d = new Date(fromDate); d <= now; d.setUTCDate(d.getUTCDate() + 1))
    days.set(d.toISOString().slice(0, 10), { ...zero(), hist: [] });
  const areas = new Map<string, Counts>();
  const perKey = new Map<string, Counts>();
  const totals = zero();
  const hist: number[] = [];
  let tokens = 0;
  for (const r of rows) {
    const day = days.get(r.day.toISOString().slice(0, 10));
    if (day) {
      add(day, r);
      addHist(day.hist, r.latencyHist);
    }
    const area = routeArea(r.route);
    if (!areas.has(area)) areas.set(area, zero());
    add(areas.get(area)!, r);
    if (!perKey.has(r.keyId)) perKey.set(r.keyId, zero());
    add(perKey.get(r.keyId)!, r);
    add(totals, r);
    addHist(hist, r.latencyHist);
    tokens += Number(r.tokens);
  }
  const providers = new Map<string, UsageReport["providers"][number]>();
  for (const p of providerRows) {
    const entry = providers.get(p.provider) ?? {
      provider: p.provider,
      requests: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
    };
    entry.requests += p.requests;
    entry.prompt_tokens += Number(p.promptTokens);
    entry.completion_tokens += Number(p.completionTokens);
    providers.set(p.provider, entry);
  }

  return {
    from,
    to,
    totals: { ...totals, tokens, p50_ms: latencyPercentile(hist, 0.5), p95_ms: latencyPercentile(hist, 0.95) },
    daily: [...days].map(([day, { hist: h, ...c }]) => ({
      day,
      ...c,
      p50_ms: latencyPercentile(h, 0.5),
      p95_ms: latencyPercentile(h, 0.95),
    })),
    areas: [...areas].map(([area, c]) => ({ area, ...c })).sort((a, b) => b.requests - a.requests),
    providers: [...providers.values()].sort(
      (a, b) => b.prompt_tokens + b.completion_tokens - (a.prompt_tokens + a.completion_tokens),
    ),
    keys: keys
      .map((k) => {
        const c = perKey.get(k.id) ?? zero();
        return {
          id: k.id,
          name: k.name,
          prefix: k.prefix,
          owner: k.user?.email ?? null,
          kind: k.kind,
          ...c,
          error_rate: c.requests ? failedRequests(c) / c.requests : 0,
        };
      })
      .filter((k) => k.requests > 0 || owner !== undefined)
      .sort((a, b) => b.requests - a.requests),
    latency_buckets_ms: LATENCY_BUCKETS_MS,
  };
}

export type QuotaNow = {
  id: string;
  name: string;
  prefix: string;
  day: { limit: number; remaining: number; reset: string };
  minute: { limit: number; remaining: number };
};

/** What each of a user's usable keys has left today and this minute, from the limiter (live, not the database). */
export async function quotaNow(rt: Runtime, owner: string, now = Date.now()): Promise<QuotaNow[]> {
  const rows = await rt.db.prisma.apiKey.findMany({
    where: { userId: owner, status: "active" },
    orderBy: { createdAt: "asc" },
  });
  const usable = rows.filter((r) => r.expiresAt === null || r.expiresAt.getTime() > now);
  return Promise.all(
    usable.map(async (row) => {
      const key = withConsolePolicy(toKeyRecord(row), rt.config.console);
      const { day, minute } = await rt.limiter.remaining(key.limitKey, effectiveLimits(key, rt.config.limits));
      return {
        id: row.id,
        name: row.name,
        prefix: row.prefix,
        day: { limit: day.limit, remaining: day.remaining, reset: new Date(day.reset).toISOString() },
        minute: { limit: minute.limit, remaining: minute.remaining },
      };
    }),
  );
}
