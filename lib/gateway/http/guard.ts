import type { UsageDetail } from "./context.ts";
import { RateLimitError } from "../../errors.ts";
import { effectiveLimits, type KeyRecord } from "../keys/record.ts";
import type { Admission } from "../runtime/limits/limiter.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { countUsage } from "../runtime/usage-metrics.ts";
import { describeBudgetUse, formatAmount } from "../../usage/budget-text.ts";
import type { BudgetRefusal } from "../../usage/budgets.ts";
import type { GuardrailDecision } from "../../guardrails/decision.ts";
import type { BodyCapture } from "../../usage/body-capture.ts";
import type { RequestAttempt } from "../../usage/request-attempts.ts";
import type { RequestTags } from "../../usage/request-tags.ts";
import { ERROR_CHARS, type UsageEventInput } from "../../usage/usage-event.ts";

/** The scope of the owner's own account endpoints, which every key may call. */
export const ACCOUNT_AREA = "account";

/** What a keyed request is metered as, besides its outcome. */
export type UsageRequest = {
  requestId: string;
  method: string;
  route: string;
  area: string;
  bytesIn: number;
  /** The request's trace, when tracing is on: the request log links to it. */
  traceId?: string;
  /** The caller's User-Agent, capped (USER_AGENT_CHARS). */
  userAgent?: string;
  /** The caller's x-gateway-metadata tags. */
  tags?: RequestTags;
  /** What the guardrail policy decided on the prompt: set once it was checked, read when the request is recorded. */
  guardrails?: GuardrailDecision[];
};

/**
 * Appends the request's usage event to memory, and counts its tokens and cost in /metrics, once its
 * status and size are known; its latency runs from now.
 */
export function usageRecorder(rt: Runtime, key: KeyRecord, request: UsageRequest, capture?: BodyCapture) {
  const started = performance.now();
  return (
    status: number,
    bytesOut: number,
    usage?: Omit<UsageDetail, "bytesOut">,
    attempts?: RequestAttempt[],
    /** The message a failed request's caller was answered with. */
    error?: string,
  ) => {
    const event = {
      keyId: key.id,
      ...request,
      status,
      latencyMs: performance.now() - started,
      bytesOut,
      ...usage,
      at: new Date(),
      attempts,
      ...(error !== undefined && { error: error.slice(0, ERROR_CHARS) }),
    };
    const bodies = capture?.bodies();
    recordUsage(rt, bodies ? { ...event, bodies } : event);
  };
}

/**
 * Where every usage event goes, whether a request's recorder or work running on after it (an agent's
 * model call, a batch item) made it: the meter (usage tables, budgets) and the token and cost counters
 * of /metrics, so the two add up to the same spend.
 */
export function recordUsage(rt: Pick<Runtime, "meter" | "metrics">, event: UsageEventInput): void {
  rt.meter.record(event);
  countUsage(rt.metrics, event);
}

/**
 * Admits a request of an accepted key: the monthly budgets with a hard stop over it (its own, its user's,
 * team's and organisation's: map lookups, nothing read from the database), then its minute, day and concurrency windows and those of the levels above it
 * (its user's, team's, organisation's: LevelDirectory.chainOf), in one store call. A refusal is counted,
 * reported to `refused` (for metering) and thrown as the 429. Where `budgeted` is
 * false (the owner's account, reads of their own tasks: they cost nothing) only the windows apply.
 */
export async function admitKey(
  rt: Runtime,
  key: KeyRecord,
  budgeted: boolean,
  refused: (refusal: RateLimitError) => void,
): Promise<Admission> {
  if (budgeted) rt.budgets.track(key);
  const overBudget = budgeted ? budgetRefusalOf(rt, key.id) : undefined;
  if (overBudget) {
    rt.metrics.rateLimited.inc({ kind: "budget" });
    const refusal = budgetRefusal(overBudget);
    refused(refusal);
    throw refusal;
  }
  try {
    const { requests } = rt.levels.chainOf(key);
    return await rt.limiter.admit(
      key.limitKey,
      effectiveLimits(key, rt.config.limits),
      requests.length > 0 ? requests : undefined,
    );
  } catch (err) {
    if (err instanceof RateLimitError) {
      rt.metrics.rateLimited.inc({ kind: err.window });
      refused(err);
    }
    throw err;
  }
}

/**
 * The refusal of the budget a key's spending counts against, once it is used up (one map lookup): the
 * one place that says what a budget is keyed by, for the guard and for work that runs on after it.
 */
export function budgetRefusalOf(rt: Pick<Runtime, "budgets">, keyId: string): BudgetRefusal | undefined {
  return rt.budgets.refusal(keyId);
}

/**
 * Asked before each unit of work a key started that goes on spending after its request was admitted
 * (a batch item, an agent's model call, a video poll): once the key's hard-stop budget is used up, the
 * budget's 429, for the work to stop with (as a BudgetExceeded carrying what it finished); else undefined.
 * O(1), no I/O: the meter counts each finished unit into the budget as it records it.
 */
export function spendRefusal(rt: Pick<Runtime, "budgets">, keyId: string): RateLimitError | undefined {
  const refusal = budgetRefusalOf(rt, keyId);
  return refusal && budgetRefusal(refusal);
}

/**
 * The 429 (Form B) of a used-up budget, naming it; Retry-After and X-RateLimit-Reset point at the start of
 * the next UTC month, when it resets, and the limit headers describe the budget.
 */
export function budgetRefusal({ holder, budget, used, resetsAt }: BudgetRefusal, now = Date.now()): RateLimitError {
  const month = new Date(resetsAt - 1).toISOString().slice(0, 7);
  const whose =
    holder.level === "key"
      ? "this key's budget"
      : holder.level === "user"
        ? "the budget of the account this key belongs to"
        : `${holder.level} "${holder.name}"'s budget`;
  const who = holder.level === "key" ? "its owner" : "an operator";
  return new RateLimitError(
    `monthly budget exceeded: ${whose} of ${formatAmount(budget.metric, budget.limit)}${budget.metric === "cost" ? " (estimated cost)" : ""} for ${month} (UTC) is used up (${describeBudgetUse(budget.metric, used, budget.limit)}); it resets at the start of next month, or ${who} can raise it`,
    Math.max(1, Math.ceil((resetsAt - now) / 1000)),
    "budget",
    {
      "X-RateLimit-Limit": String(Math.floor(budget.limit)),
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(Math.ceil(resetsAt / 1000)),
    },
  );
}
