import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isDatabaseUnreachable } from "./db/unreachable.ts";

/** An error a user caused or can act on; its message is shown to them as is. */
export class GatewayError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "GatewayError";
  }
}

/** 429 in the spec's Form B: the only error shaped as an object. */
export class RateLimitError extends GatewayError {
  constructor(
    message: string,
    readonly retryAfter: number,
    readonly window: "minute" | "day" | "concurrency" | "jobs" | "tasks" | "batch_items" | "budget",
    headers: Record<string, string> = {},
  ) {
    super(429, message, { ...headers, "Retry-After": String(retryAfter) });
    this.name = "RateLimitError";
  }
}

export type ErrorLogger = (err: unknown, c: Context) => void;

/** The one place errors become responses: Form A `{error}` for all but 429, never a stack trace. */
export function errorResponse(err: unknown, c: Context, logUnexpected: ErrorLogger): Response {
  if (err instanceof RateLimitError) {
    return c.json(
      { error: { code: "rate_limit_exceeded", message: err.message, retry_after: err.retryAfter } },
      429,
      err.headers,
    );
  }
  if (err instanceof GatewayError) return c.json({ error: err.message }, err.status, err.headers);
  if (err instanceof HTTPException) {
    const message = err.status === 413 ? "request body too large" : err.message || "request failed";
    return c.json({ error: message }, err.status);
  }
  if (isDatabaseUnreachable(err))
    // The database is down or restarting: the client may retry, and the log has the outage already
    // (the key store's and the meter's own warnings).
    return c.json({ error: "the database is unreachable; try again shortly" }, 503, { "Retry-After": "5" });
  logUnexpected(err, c);
  return c.json({ error: `internal server error (request id ${c.get("requestId") ?? "unknown"})` }, 500);
}
