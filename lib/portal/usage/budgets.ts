import { z } from "zod";
import type { Database } from "../../db/client.ts";
import {
  BUDGET_METRICS,
  type Budget,
  type BudgetCeilings,
  type BudgetStatus,
  type BudgetTracker,
} from "../../usage/budgets.ts";
import { formatAmount } from "../../usage/budget-text.ts";

/** The budget form: a metric, a positive limit (at most the operator's ceiling for it), a hard stop or not. */
export function budgetInput(ceilings: BudgetCeilings) {
  return z
    .object({
      keyId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "not a key id"),
      metric: z.enum(BUDGET_METRICS, { message: "choose requests, tokens or estimated cost" }),
      limit: z.coerce
        .number({ message: "the monthly limit must be a number" })
        .finite("the monthly limit must be a number")
        .positive("the monthly limit must be more than 0"),
      hardStop: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
    })
    .superRefine((v, ctx) => {
      if (v.limit > ceilings[v.metric])
        ctx.addIssue({
          code: "custom",
          path: ["limit"],
          message: `the monthly limit is at most ${formatAmount(v.metric, ceilings[v.metric])} a month (the operator's ceiling)`,
        });
      if (v.metric !== "cost" && !Number.isInteger(v.limit))
        ctx.addIssue({
          code: "custom",
          path: ["limit"],
          message: `${v.metric} are counted whole: give a whole number`,
        });
    });
}

export class BudgetRuleError extends Error {}

/** An owner's key a budget may be set on: their own client key, not revoked. */
async function ownKey(db: Database, keyId: string, owner: string) {
  const key = await db.prisma.apiKey.findFirst({
    where: { id: keyId, userId: owner, kind: "client", status: "active" },
  });
  if (!key) throw new BudgetRuleError("no such key among your active keys");
  return key;
}

/**
 * The key that holds a budget for `key`'s rotation lineage (it applies to every key of the lineage, whose
 * spend adds up in it): the lineage's newest key, where a rotation moves it, else `key` itself.
 */
async function budgetHolder(db: Database, key: { id: string; lineageId: string | null }) {
  const lineage = key.lineageId ?? key.id;
  const newest = await db.prisma.apiKey.findFirst({
    where: { lineageId: lineage, replacedBy: null },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  return { id: newest?.id ?? key.id, lineage };
}

/**
 * Sets the monthly budget of a key and the rest of its rotation lineage (its owner only), audited, and
 * applies it on this instance at once. One row holds it (budgetHolder): rows rotations once copied go.
 */
export async function setBudget(
  db: Database,
  tracker: BudgetTracker,
  owner: string,
  actor: string,
  input: { keyId: string } & Budget,
): Promise<void> {
  const holder = await budgetHolder(db, await ownKey(db, input.keyId, owner));
  const data = { metric: input.metric, monthlyLimit: input.limit, hardStop: input.hardStop, updatedAt: new Date() };
  await db.prisma.$transaction([
    db.prisma.keyBudget.deleteMany({ where: { key: { lineageId: holder.lineage }, keyId: { not: holder.id } } }),
    db.prisma.keyBudget.upsert({
      where: { keyId: holder.id },
      create: { keyId: holder.id, ...data },
      update: data,
    }),
    db.prisma.auditLog.create({
      data: {
        actor,
        action: "key.budget",
        target: input.keyId,
        detail: { metric: input.metric, limit: input.limit, hard_stop: input.hardStop },
      },
    }),
  ]);
  tracker.apply(input.keyId, { metric: input.metric, limit: input.limit, hardStop: input.hardStop }, holder.lineage);
}

/** Removes the budget of a key and the rest of its rotation lineage (its owner only). */
export async function removeBudget(db: Database, tracker: BudgetTracker, owner: string, actor: string, keyId: string) {
  const { lineage } = await budgetHolder(db, await ownKey(db, keyId, owner));
  await db.prisma.$transaction([
    db.prisma.keyBudget.deleteMany({ where: { OR: [{ keyId }, { key: { lineageId: lineage } }] } }),
    db.prisma.auditLog.create({ data: { actor, action: "key.budget.remove", target: keyId } }),
  ]);
  tracker.apply(keyId, null, lineage);
}

export type KeyBudgetView = {
  id: string;
  name: string;
  prefix: string;
  status: BudgetStatus | null;
};

/** The owner's active client keys, each with its budget and this month's use (from memory, refreshed in the background). */
export async function budgetsOf(db: Database, tracker: BudgetTracker, owner: string): Promise<KeyBudgetView[]> {
  const keys = await db.prisma.apiKey.findMany({
    where: { userId: owner, kind: "client", status: "active" },
    orderBy: { createdAt: "asc" },
  });
  return keys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, status: tracker.status(k.id) ?? null }));
}

/** A key's budget as its card shows it: the budget's terms and this month's use; null when it has none. */
export function budgetStanding(status: BudgetStatus | null) {
  return status
    ? {
        metric: status.budget.metric,
        limit: status.budget.limit,
        hardStop: status.budget.hardStop,
        used: status.used,
        month: status.month,
      }
    : null;
}
