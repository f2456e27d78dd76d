import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { effectiveLimits, toKeyRecord, withEnforcedTerms } from "../../gateway/keys/record.ts";
import { LATENCY_BUCKETS_MS, latencyPercentile } from "../../usage/latency-histogram.ts";
import {
  groupUsage,
  readCacheUsage,
  readModelUsage,
  readProviderUsage,
  readUsage,
  sumUsage,
  type CacheUsageRow,
  type ModelUsageRow,
  type UsageSums,
} from "../../usage/reader.ts";
import { estimateCost } from "../../usage/prices.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { DEFAULT_PERIOD, daysOf, type Period, periodOf, periodQuery, presetPeriod } from "./period.ts";
import { TAG_NAME } from "../../usage/request-tags.ts";
import { tagNames, usageByTag } from "./tag-usage.ts";
import {
  failedRequests,
  type CacheSavings,
  type Counts,
  type ModelUsage,
  type QuotaNow,
  type TagReport,
  type UsageReport,
} from "./summary.ts";

// The payload's types live with its presentation (a leaf the client dashboard can import); also exported here,
// beside the functions that build it.
export type { Counts, QuotaNow, TagReport, UsageReport } from "./summary.ts";

/**
 * The usage routes' query: `key` is one of the ids we issue (`key_` + hex), nothing the database could
 * refuse; the period (periodQuery); `tag`, a tag name to group the logged requests by.
 */
export const usageQuery = periodQuery.extend({
  key: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, "key must be a key id")
    .optional(),
  tag: z.string().regex(TAG_NAME, "tag must be a tag name: 1 to 64 letters, digits, _ . or -").optional(),
});

/** The report a usage route's query asks for, or the problem with the query in words (the route's 400). */
export async function reportFor(
  db: Database,
  scope: ReportScope,
  query: Record<string, string>,
  now = new Date(),
): Promise<{ report: UsageReport; tags: TagReport } | { problem: string }> {
  const parsed = usageQuery.safeParse(query);
  if (!parsed.success) return { problem: parsed.error.issues.map((i) => i.message).join("; ") };
  const asked = periodOf(parsed.data, now);
  if ("problem" in asked) return asked;
  const { key, tag } = parsed.data;
  const report = await usageReport(db, { ...scope, ...(key && { keyId: key }) }, asked.period);
  const everyKey = !scope.owner && !scope.teamId && !scope.organisationId && !key;
  const filter = { keyIds: everyKey ? null : report.keys.map((k) => k.id), period: asked.period };
  const [names, byTag] = await Promise.all([tagNames(db, filter), tag ? usageByTag(db, filter, tag) : undefined]);
  return { report, tags: { names, name: tag ?? null, rows: byTag?.rows ?? [], total: byTag?.total ?? null } };
}

/** Summed rows as disjoint classes: the rollups count a 429 in `client` too; here it is `limited` alone. */
function counts(s: UsageSums): Counts {
  return { requests: s.requests, ok: s.ok, client: s.client - s.limited, server: s.server, limited: s.limited };
}

/**
 * Model rows summed per provider and model over the period, each priced from the one price table when
 * read, and their total (which adds up the rows exactly; `unpriced` counts calls to models without a price).
 */
export function modelBreakdown(rows: Iterable<ModelUsageRow>): Pick<UsageReport, "models" | "models_total"> {
  const byModel = new Map<string, ModelUsage>();
  for (const r of rows) {
    const id = `${r.provider}\u0000${r.model}`;
    const m = byModel.get(id) ?? {
      provider: r.provider,
      model: r.model,
      requests: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      cost_usd: null,
    };
    m.requests += r.requests;
    m.prompt_tokens += r.prompt;
    m.completion_tokens += r.completion;
    byModel.set(id, m);
  }
  const models = [...byModel.values()]
    .map((m) => ({ ...m, cost_usd: estimateCost(m.provider, m.model, m.prompt_tokens, m.completion_tokens) ?? null }))
    .sort((a, b) => b.requests - a.requests || a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model));
  const total = { requests: 0, prompt_tokens: 0, completion_tokens: 0, cost_usd: 0, unpriced: 0 };
  for (const m of models) {
    total.requests += m.requests;
    total.prompt_tokens += m.prompt_tokens;
    total.completion_tokens += m.completion_tokens;
    if (m.cost_usd === null) total.unpriced += m.requests;
    else total.cost_usd += m.cost_usd;
  }
  return { models, models_total: total };
}

/** Cache rows summed over the period, each provider and model's saved tokens priced when read. */
export function cacheSavings(rows: Iterable<CacheUsageRow>): CacheSavings {
  const total: CacheSavings = {
    hits: 0,
    misses: 0,
    saved_prompt_tokens: 0,
    saved_completion_tokens: 0,
    saved_cost_usd: 0,
    unpriced_hits: 0,
  };
  for (const r of rows) {
    total.hits += r.hits;
    total.misses += r.misses;
    total.saved_prompt_tokens += r.savedPrompt;
    total.saved_completion_tokens += r.savedCompletion;
    if (r.hits === 0) continue;
    const cost = estimateCost(r.provider, r.model, r.savedPrompt, r.savedCompletion);
    if (cost === undefined) total.unpriced_hits += r.hits;
    else total.saved_cost_usd += cost;
  }
  return total;
}

/** Whose keys a report covers: one user's (owner), one key, one team's, one organisation's; none: every key. */
export type ReportScope = { owner?: string; keyId?: string; teamId?: string; organisationId?: string };

/**
 * The dashboards' report of usage over a period (default: the last 30 UTC days), from the daily rollups
 * only (never the raw events, nor this instance's unwritten ones), grouped by the recorded area: for one
 * user's keys (owner), one key, a team's, an organisation's, or every key (none).
 */
export async function usageReport(
  db: Database,
  { owner, keyId, teamId, organisationId }: ReportScope,
  period: Period = presetPeriod(DEFAULT_PERIOD),
): Promise<UsageReport> {
  const { from, to, label } = period;

  const keys = await db.prisma.apiKey.findMany({
    where: {
      ...(owner ? { userId: owner } : {}),
      ...(keyId ? { id: keyId } : {}),
      ...(teamId ? { teamId } : {}),
      ...(organisationId ? { team: { organisationId } } : {}),
    },
    include: { user: { select: { email: true } } },
  });
  const filter = { keyIds: keys.map((k) => k.id), from, to };
  const [rows, providerRows, modelRows, cacheRows] = await Promise.all([
    readUsage(db, filter),
    readProviderUsage(db, filter),
    readModelUsage(db, filter),
    readCacheUsage(db, filter),
  ]);

  const byDay = groupUsage(rows, "day");
  const perKey = groupUsage(rows, "keyId");
  const modelsPerKey = new Map<string, ModelUsageRow[]>();
  for (const r of modelRows) modelsPerKey.set(r.keyId, [...(modelsPerKey.get(r.keyId) ?? []), r]);
  const all = sumUsage(rows);
  const providers = new Map<string, UsageReport["providers"][number]>();
  for (const p of providerRows) {
    const entry = providers.get(p.provider) ?? {
      provider: p.provider,
      requests: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
    };
    entry.requests += p.requests;
    entry.prompt_tokens += p.prompt;
    entry.completion_tokens += p.completion;
    providers.set(p.provider, entry);
  }

  return {
    from,
    to,
    label,
    totals: {
      ...counts(all),
      tokens: all.tokens,
      p50_ms: latencyPercentile(all.latencyHist, 0.5),
      p95_ms: latencyPercentile(all.latencyHist, 0.95),
    },
    daily: daysOf(period).map((day) => {
      const sums = sumUsage(byDay.get(day) ?? []);
      return {
        day,
        ...counts(sums),
        p50_ms: latencyPercentile(sums.latencyHist, 0.5),
        p95_ms: latencyPercentile(sums.latencyHist, 0.95),
      };
    }),
    areas: [...groupUsage(rows, "area")]
      .map(([area, rs]) => ({ area, ...counts(sumUsage(rs)) }))
      .sort((a, b) => b.requests - a.requests),
    providers: [...providers.values()].sort(
      (a, b) => b.prompt_tokens + b.completion_tokens - (a.prompt_tokens + a.completion_tokens),
    ),
    routes: [...groupUsage(rows, "route")]
      .map(([route, rs]) => {
        const sums = sumUsage(rs);
        return { route, area: rs[rs.length - 1]!.area, ...counts(sums), tokens: sums.tokens };
      })
      .sort((a, b) => b.requests - a.requests || a.route.localeCompare(b.route)),
    ...modelBreakdown(modelRows),
    keys: keys
      .map((k) => {
        const c = counts(sumUsage(perKey.get(k.id) ?? []));
        const spent = modelBreakdown(modelsPerKey.get(k.id) ?? []).models_total;
        return {
          id: k.id,
          name: k.name,
          prefix: k.prefix,
          owner: k.user?.email ?? null,
          team_id: k.teamId,
          kind: k.kind,
          ...c,
          error_rate: c.requests ? failedRequests(c) / c.requests : 0,
          tokens: spent.prompt_tokens + spent.completion_tokens,
          cost_usd: spent.cost_usd,
        };
      })
      .filter((k) => k.requests > 0 || owner !== undefined)
      .sort((a, b) => b.requests - a.requests),
    cache: cacheSavings(cacheRows),
    latency_buckets_ms: LATENCY_BUCKETS_MS,
  };
}

/** What each of a user's usable keys has left today and this minute, from the limiter (live, not the database). */
export async function quotaNow(rt: Runtime, owner: string, now = Date.now()): Promise<QuotaNow[]> {
  const rows = await rt.db.prisma.apiKey.findMany({
    where: { userId: owner, status: "active" },
    orderBy: { createdAt: "asc" },
  });
  const usable = rows.filter((r) => r.expiresAt === null || r.expiresAt.getTime() > now);
  return Promise.all(
    usable.map(async (row) => {
      const key = withEnforcedTerms(toKeyRecord(row), rt.config);
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
