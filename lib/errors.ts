import { isDatabaseUnreachable } from "./db/unreachable.ts";

/** An error a user caused or can act on; its message is shown to them as is. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
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
    readonly window:
      "minute" | "day" | "concurrency" | "tokens_minute" | "tokens_day" | "jobs" | "tasks" | "batch_items" | "budget",
    headers: Record<string, string> = {},
  ) {
    super(429, message, { ...headers, "Retry-After": String(retryAfter) });
    this.name = "RateLimitError";
  }
}

/** What an error is answered with: its status, JSON body and headers. */
export type ErrorAnswer = { status: number; body: object; headers?: Record<string, string> };

/**
 * The one place errors become answers: Form A `{error}` for all but 429, never a stack trace.
 * `unexpected` is told of an error no user caused (logged by the caller), before its 500.
 */
export function errorAnswer(
  err: unknown,
  requestId: string | undefined,
  unexpected: (err: unknown) => void,
): ErrorAnswer {
  if (err instanceof RateLimitError) {
    return {
      status: 429,
      body: { error: { code: "rate_limit_exceeded", message: err.message, retry_after: err.retryAfter } },
      headers: err.headers,
    };
  }
  if (err instanceof GatewayError) return { status: err.status, body: { error: err.message }, headers: err.headers };
  if (isDatabaseUnreachable(err))
    // The database is down or restarting: the client may retry, and the log has the outage already
    // (the key store's and the meter's own warnings).
    return {
      status: 503,
      body: { error: "the database is unreachable; try again shortly" },
      headers: { "Retry-After": "5" },
    };
  unexpected(err);
  return { status: 500, body: { error: `internal server error (request id ${requestId ?? "unknown"})` } };
}
