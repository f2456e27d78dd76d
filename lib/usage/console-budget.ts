import type { Database } from "../db/client.ts";
import { BUDGET_METRICS, type Budget, type BudgetMetric, type BudgetTracker } from "./budgets.ts";

// Money first: the consoles' heavy calls are language models, which a cost budget is set against.
const METRIC_ORDER: readonly BudgetMetric[] = ["cost", "tokens", "requests"];

/**
 * The budget a user's console key is held to: the strictest of their keys' monthly budgets (a hard stop
 * before an alert-only one, then cost before tokens before requests, then the smallest limit), or none
 * when no key of theirs has one. Without it the console, which needs no key, would be a way around them.
 */
export function consoleBudget(budgets: readonly Budget[]): Budget | null {
  const ranked = [...budgets].sort(
    (a, b) =>
      Number(b.hardStop) - Number(a.hardStop) ||
      METRIC_ORDER.indexOf(a.metric) - METRIC_ORDER.indexOf(b.metric) ||
      a.limit - b.limit,
  );
  return ranked[0] ?? null;
}

const sameBudget = (a: Budget | null, b: Budget | null) =>
  a === b || (!!a && !!b && a.metric === b.metric && a.limit === b.limit && a.hardStop === b.hardStop);

const asBudget = (row: { metric: string; monthlyLimit: number; hardStop: boolean }): Budget | null =>
  (BUDGET_METRICS as readonly string[]).includes(row.metric)
    ? { metric: row.metric as BudgetMetric, limit: row.monthlyLimit, hardStop: row.hardStop }
    : null;

/**
 * Gives the console key `consoleKeyId` its user's console budget (consoleBudget of their active client
 * keys' budgets) as its own budget row, so the tracker meters and stops console spending like any key's.
 * Called as the session bridge reads a session (off the per-request path); writes only on a change.
 */
export async function syncConsoleBudget(
  db: Database,
  tracker: Pick<BudgetTracker, "apply">,
  userId: string,
  consoleKeyId: string,
): Promise<Budget | null> {
  const rows = await db.prisma.keyBudget.findMany({
    where: { OR: [{ keyId: consoleKeyId }, { key: { userId, kind: "client", status: "active" } }] },
  });
  const own = rows.find((r) => r.keyId === consoleKeyId);
  const current = own ? asBudget(own) : null;
  const wanted = consoleBudget(rows.filter((r) => r.keyId !== consoleKeyId).flatMap((r) => asBudget(r) ?? []));
  if (sameBudget(current, wanted)) return wanted;
  if (wanted) {
    const data = {
      metric: wanted.metric,
      monthlyLimit: wanted.limit,
      hardStop: wanted.hardStop,
      updatedAt: new Date(),
    };
    await db.prisma.keyBudget.upsert({
      where: { keyId: consoleKeyId },
      create: { keyId: consoleKeyId, ...data },
      update: data,
    });
  } else {
    await db.prisma.keyBudget.deleteMany({ where: { keyId: consoleKeyId } });
  }
  tracker.apply(consoleKeyId, wanted);
  return wanted;
}
