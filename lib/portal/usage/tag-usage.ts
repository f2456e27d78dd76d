// Usage grouped by one of the tags callers send in x-gateway-metadata (a user id, a session, a feature).
// Tags live on the request log's rows only (the daily rollups have no room for a caller's own names), so
// this reads the log: the period's requests that kept a row, within the log's retention.
import { Prisma } from "../../db/generated/client.ts";
import type { Database } from "../../db/client.ts";
import { estimateCost } from "../../usage/prices.ts";
import type { Period } from "./period.ts";
import type { TagUsage } from "./summary.ts";

/** The most tag names offered, and the most values listed (the rest are summed as one row). */
export const MAX_TAG_NAMES = 50;
export const MAX_TAG_VALUES = 100;

const DAY_MS = 86_400_000;

type Filter = { keyIds: readonly string[] | null; period: Pick<Period, "from" | "to"> };

/** The rows of a period, for some keys (null: every key). */
function where({ keyIds, period }: Filter): Prisma.Sql {
  const from = new Date(`${period.from}T00:00:00Z`);
  const end = new Date(Date.parse(`${period.to}T00:00:00Z`) + DAY_MS);
  const keys = keyIds === null ? Prisma.empty : Prisma.sql`AND key_id IN (${Prisma.join(keyIds)})`;
  return Prisma.sql`created_at >= ${from} AND created_at < ${end} ${keys}`;
}

/** The tag names the period's logged requests carry, most used first. */
export async function tagNames(db: Database, filter: Filter): Promise<string[]> {
  if (filter.keyIds?.length === 0) return [];
  const rows = await db.prisma.$queryRaw<Array<{ name: string }>>`
    SELECT name FROM usage_events, jsonb_object_keys(tags) AS name
    WHERE tags IS NOT NULL AND ${where(filter)}
    GROUP BY name ORDER BY count(*) DESC, name LIMIT ${MAX_TAG_NAMES}`;
  return rows.map((r) => r.name);
}

type Row = {
  value: string;
  provider: string | null;
  model: string | null;
  requests: number;
  failed: number;
  prompt: bigint | number;
  completion: bigint | number;
};

/**
 * The period's logged requests carrying tag `name`, by its value: requests, failures, tokens and the cost
 * estimated from the price table per provider and model, most requests first. Past MAX_TAG_VALUES values,
 * the rest are one row with a null value; `total` adds up every row.
 */
export async function usageByTag(
  db: Database,
  filter: Filter,
  name: string,
): Promise<{ rows: TagUsage[]; total: TagUsage }> {
  const rows =
    filter.keyIds?.length === 0
      ? []
      : await db.prisma.$queryRaw<Row[]>`
    SELECT tags ->> ${name} AS value, provider, model, count(*)::int AS requests,
      (count(*) FILTER (WHERE status >= 400))::int AS failed,
      coalesce(sum(prompt_tokens), 0)::bigint AS prompt, coalesce(sum(completion_tokens), 0)::bigint AS completion
    FROM usage_events
    WHERE tags ->> ${name} IS NOT NULL AND ${where(filter)}
    GROUP BY 1, 2, 3`;
  const byValue = new Map<string, TagUsage>();
  for (const r of rows) {
    const prompt = Number(r.prompt);
    const completion = Number(r.completion);
    const entry = byValue.get(r.value) ?? emptyTagUsage(r.value);
    entry.requests += r.requests;
    entry.failed += r.failed;
    entry.tokens += prompt + completion;
    if (r.provider && prompt + completion > 0) {
      const cost = estimateCost(r.provider, r.model ?? "", prompt, completion);
      if (cost === undefined) entry.unpriced += r.requests;
      else entry.cost_usd += cost;
    }
    byValue.set(r.value, entry);
  }
  const sorted = [...byValue.values()].sort((a, b) => b.requests - a.requests || a.value!.localeCompare(b.value!));
  const listed = sorted.slice(0, MAX_TAG_VALUES);
  const rest = sorted.slice(MAX_TAG_VALUES);
  if (rest.length > 0) listed.push(rest.reduce(addTagUsage, emptyTagUsage(null)));
  return { rows: listed, total: listed.reduce(addTagUsage, emptyTagUsage(null)) };
}

const emptyTagUsage = (value: string | null): TagUsage => ({
  value,
  requests: 0,
  failed: 0,
  tokens: 0,
  cost_usd: 0,
  unpriced: 0,
});

function addTagUsage(sum: TagUsage, row: TagUsage): TagUsage {
  sum.requests += row.requests;
  sum.failed += row.failed;
  sum.tokens += row.tokens;
  sum.cost_usd += row.cost_usd;
  sum.unpriced += row.unpriced;
  return sum;
}
