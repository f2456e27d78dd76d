import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { routePath } from "hono/route";
import { authenticate, type AuthMode } from "./auth.ts";
import type { GatewayEnv } from "./context.ts";
import { JsonText } from "./json-text.ts";
import { setResponseHeaders } from "./response-headers.ts";
import { RateLimitError } from "../../errors.ts";
import { effectiveLimits } from "../keys/record.ts";
import { describeBudgetUse, formatAmount } from "../../usage/budget-text.ts";
import type { BudgetRefusal } from "../../usage/budgets.ts";

/**
 * The keyed part of the pipeline for one route: auth → limits → (validation and handler) →
 * metering. Metering only appends to memory, under the area's scope (`area`), so no reader derives
 * the area from the route; rate-limit headers go on every keyed response.
 */
export function guard(mode: Exclude<AuthMode, "none">, area: string): MiddlewareHandler<GatewayEnv> {
  // c.get, not c.var: Hono builds a fresh object from all variables on every c.var read.
  return async function gatewayGuard(c, next) {
    const rt = c.get("runtime");
    const key = await authenticate(c, rt, mode, area);
    if (!key) return next();
    c.set("key", key);

    const started = performance.now();
    const route = routePath(c);
    const record = (status: number, bytesOut: number) => {
      const { bytesOut: _streamed, ...usage } = c.get("usage") ?? {};
      rt.meter.record({
        keyId: key.id,
        requestId: c.get("requestId"),
        method: c.req.method,
        route,
        area,
        status,
        latencyMs: performance.now() - started,
        bytesIn: Number(c.req.header("content-length") ?? 0) || 0,
        bytesOut,
        ...usage,
        at: new Date(),
      });
    };

    // The key's monthly budget with a hard stop: one map lookup, nothing read from the database.
    const overBudget = rt.budgets.refusal(key.id);
    if (overBudget) {
      rt.metrics.rateLimited.inc({ kind: "budget" });
      record(429, 0);
      throw budgetRefusal(overBudget);
    }

    let admission;
    try {
      admission = await rt.limiter.admit(key.limitKey, effectiveLimits(key, rt.config.limits));
    } catch (err) {
      if (err instanceof RateLimitError) {
        rt.metrics.rateLimited.inc({ kind: err.window });
        record(429, 0);
      }
      throw err;
    }
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
      record(
        c.res.status,
        c.get("usage")?.bytesOut ?? counted.bytes ?? (Number(c.res.headers.get("content-length")) || 0),
      );
    };
    // A stream holds its concurrency slot, and is metered (tokens included), until it ends.
    const streamDone = c.get("streamDone");
    if (streamDone) rt.meter.recordWhen(streamDone.finally(finish));
    else finish();
  };
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
