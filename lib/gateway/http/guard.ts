import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { routePath } from "hono/route";
import { authenticate, type AuthMode } from "./auth.ts";
import type { GatewayEnv, UsageDetail } from "./context.ts";
import { JsonText } from "./json-text.ts";
import { setResponseHeaders } from "./response-headers.ts";
import { RateLimitError } from "../../errors.ts";
import { effectiveLimits, type KeyRecord } from "../keys/record.ts";
import type { Admission } from "../runtime/limits/limiter.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { describeBudgetUse, formatAmount } from "../../usage/budget-text.ts";
import type { BudgetRefusal } from "../../usage/budgets.ts";

/**
 * The keyed part of the pipeline for one route: auth → limits → (validation and handler) →
 * metering. Metering only appends to memory, under the area's scope (`area`), so no reader derives
 * the area from the route; rate-limit headers go on every keyed response. The plain lane
 * (plain-lane.ts) runs the same steps, through admitKey and usageRecorder, on Node's own request.
 * `budgeted`: whether a used-up hard-stop budget refuses the route (see gatewayRoute's readsOwnWork);
 * the account area (`/v1/key`, `/v1/usage`) never is, being how an owner finds out why they are refused.
 */
export function guard(mode: Exclude<AuthMode, "none">, area: string, budgeted = true): MiddlewareHandler<GatewayEnv> {
  const spends = budgeted && area !== ACCOUNT_AREA;
  // c.get, not c.var: Hono builds a fresh object from all variables on every c.var read.
  const gatewayGuard: MiddlewareHandler<GatewayEnv> = async function gatewayGuard(c, next) {
    const rt = c.get("runtime");
    const req = c.req;
    const key = await authenticate(
      { header: (name) => req.header(name), query: (name) => req.query(name), url: req.url },
      rt,
      mode,
      area,
    );
    if (!key) return next();
    c.set("key", key);

    const record = usageRecorder(rt, key, {
      requestId: c.get("requestId"),
      method: c.req.method,
      route: routePath(c),
      area,
      bytesIn: Number(c.req.header("content-length") ?? 0) || 0,
    });
    const admission = await admitKey(rt, key, spends, (status) => record(status, 0));
    c.set("admission", admission);
    // Set before the handler runs so every response, errors included, carries them.
    setResponseHeaders(c, admission.headers);
    const counted = countJsonBytes(c);
    try {
      await next();
    } catch (err) {
      admission.release();
      throw err;
    }
    const finish = () => {
      admission.release();
      const { bytesOut, ...usage } = c.get("usage") ?? {};
      record(c.res.status, bytesOut ?? counted.bytes ?? (Number(c.res.headers.get("content-length")) || 0), usage);
    };
    // A stream holds its concurrency slot, and is metered (tokens included), until it ends.
    const streamDone = c.get("streamDone");
    if (streamDone) rt.meter.recordWhen(streamDone.finally(finish));
    else finish();
  };
  guardAccess.set(gatewayGuard, { mode, area, budgeted: spends });
  return gatewayGuard;
}

type GuardAccess = { mode: Exclude<AuthMode, "none">; area: string; budgeted: boolean };
const guardAccess = new WeakMap<MiddlewareHandler<GatewayEnv>, GuardAccess>();

/** The auth mode and area of a guard this module made (for the plain lane to find a route's), else undefined. */
export const accessOfGuard = (handler: unknown) => guardAccess.get(handler as MiddlewareHandler<GatewayEnv>);

/** The scope of the owner's own account endpoints, which every key may call. */
export const ACCOUNT_AREA = "account";

/** What a keyed request is metered as, besides its outcome. */
export type UsageRequest = { requestId: string; method: string; route: string; area: string; bytesIn: number };

/** Appends the request's usage event to memory once its status and size are known; its latency runs from now. */
export function usageRecorder(rt: Runtime, key: KeyRecord, request: UsageRequest) {
  const started = performance.now();
  return (status: number, bytesOut: number, usage?: Omit<UsageDetail, "bytesOut">) =>
    rt.meter.record({
      keyId: key.id,
      ...request,
      status,
      latencyMs: performance.now() - started,
      bytesOut,
      ...usage,
      at: new Date(),
    });
}

/**
 * Admits a request of an accepted key: its monthly budget with a hard stop (one map lookup, nothing
 * read from the database), then its minute, day and concurrency windows. A refusal is counted,
 * reported to `refused` with its status (for metering) and thrown as the 429. Where `budgeted` is
 * false (the owner's account, reads of their own tasks: they cost nothing) only the windows apply.
 */
export async function admitKey(
  rt: Runtime,
  key: KeyRecord,
  budgeted: boolean,
  refused: (status: 429) => void,
): Promise<Admission> {
  const overBudget = budgeted ? budgetRefusalOf(rt, key.id) : undefined;
  if (overBudget) {
    rt.metrics.rateLimited.inc({ kind: "budget" });
    refused(429);
    throw budgetRefusal(overBudget);
  }
  try {
    return await rt.limiter.admit(key.limitKey, effectiveLimits(key, rt.config.limits));
  } catch (err) {
    if (err instanceof RateLimitError) {
      rt.metrics.rateLimited.inc({ kind: err.window });
      refused(429);
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
export function budgetRefusal({ budget, used, resetsAt }: BudgetRefusal, now = Date.now()): RateLimitError {
  const month = new Date(resetsAt - 1).toISOString().slice(0, 7);
  return new RateLimitError(
    `monthly budget exceeded: this key's budget of ${formatAmount(budget.metric, budget.limit)}${budget.metric === "cost" ? " (estimated cost)" : ""} for ${month} (UTC) is used up (${describeBudgetUse(budget.metric, used, budget.limit)}); it resets at the start of next month, or its owner can raise it`,
    Math.max(1, Math.ceil((resetsAt - now) / 1000)),
    "budget",
    {
      "X-RateLimit-Limit": String(Math.floor(budget.limit)),
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(Math.ceil(resetsAt / 1000)),
    },
  );
}

// Shared by every response, so frozen: nothing may add to it.
const JSON_TYPE = Object.freeze({ "Content-Type": "application/json" });

/**
 * Makes c.json report its size as it serialises (a JsonText is sent as it is). Reading a finished
 * Response back to measure it costs ~40 µs a request, more than the rest of the pipeline.
 */
function countJsonBytes(c: Context<GatewayEnv>): { bytes?: number } {
  const counted: { bytes?: number } = {};
  c.json = ((object: unknown, arg?: ContentfulStatusCode | ResponseInit, headers?: Record<string, string>) => {
    const text = object instanceof JsonText ? object.text : JSON.stringify(object);
    counted.bytes = Buffer.byteLength(text);
    // Content-Type alone (with the handler's own headers, if any): one plain header is what Hono hands
    // @hono/node-server as it is, which then sets Content-Length itself; two or more would cost a Headers.
    return c.body(
      text,
      arg as ContentfulStatusCode,
      headers ? { "Content-Type": "application/json", ...headers } : JSON_TYPE,
    );
  }) as unknown as typeof c.json;
  return counted;
}
