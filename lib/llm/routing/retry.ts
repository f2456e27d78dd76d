import { GatewayError, RateLimitError } from "../../errors.ts";
import type { CallStop } from "../../upstream/call-stop.ts";
import { UpstreamStatusError } from "../../upstream/http.ts";
import type { BreakerOutcome } from "./breaker.ts";

/** Why an attempt on a deployment failed, as far as retrying it or another one goes. */
export type FailureReason =
  | "connection"
  | "timeout"
  | "rate-limited"
  | "overloaded"
  | "server"
  | "credentials"
  | "client"
  | "refusal"
  | "cancelled"
  | "unknown";

export type Failure = {
  /** Another attempt (on this deployment or the next) may succeed. */
  retryable: boolean;
  reason: FailureReason;
  /** The deployment's HTTP status, when it answered with one. */
  status?: number;
  /** How long the deployment asked us to wait (Retry-After, retry-after-ms). */
  retryAfterMs?: number;
  /**
   * Caused by our own excess, not the deployment's health: one key's burst (the gateway's own limits),
   * or a rate limit on one owner's own credential. Never counted against the deployment's breaker.
   */
  ownExcess?: boolean;
};

export type ClassifyContext = {
  /** The attempt used one owner's own provider key: its rate limit is theirs, not the deployment's. */
  ownCredential?: boolean;
  now?: number;
};

// Statuses a deployment answers when it is down, busy or limiting everyone; 529 is Anthropic's "overloaded".
const RETRYABLE_STATUS: Record<number, FailureReason> = {
  408: "timeout",
  429: "rate-limited",
  500: "server",
  502: "server",
  503: "overloaded",
  504: "timeout",
  529: "overloaded",
};

// Azure's "content management policy", OpenAI's and others' content filters: the same request fails anywhere.
const REFUSAL = /content[ _-]?(filter|management|policy)|responsible ?ai policy/i;

// undici's and Node's codes for a connection that failed or broke before an answer.
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * What a failed attempt means for retrying: from the gateway error a provider call threw (its upstream
 * status and Retry-After kept on UpstreamStatusError), or an undici/Node error not yet wrapped.
 */
export function classifyFailure(err: unknown, context: ClassifyContext = {}): Failure {
  if (err instanceof RateLimitError) return { retryable: false, reason: "rate-limited", status: 429, ownExcess: true };
  if (err instanceof UpstreamStatusError) return fromStatus(err, context);
  if (err instanceof GatewayError) {
    if (err.status === 504) return { retryable: true, reason: "timeout" };
    // A 502 of ours without an upstream status: no usable HTTP answer (unreachable, cut short, unreadable).
    if (err.status === 502) return { retryable: true, reason: "connection" };
    if ((err.status as number) === 499) return { retryable: false, reason: "cancelled" };
    return { retryable: false, reason: err.status >= 500 ? "unknown" : "client", status: err.status };
  }
  const { name, code } = (err ?? {}) as { name?: string; code?: string };
  if (name === "AbortError") return { retryable: false, reason: "cancelled" };
  if (name === "TimeoutError" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT")
    return { retryable: true, reason: "timeout" };
  if (code && CONNECTION_CODES.has(code)) return { retryable: true, reason: "connection" };
  // Most likely a fault of ours (a bug, the database): nothing says the deployment failed.
  return { retryable: false, reason: "unknown" };
}

function fromStatus(err: UpstreamStatusError, context: ClassifyContext): Failure {
  const { status } = err.upstream;
  const retryReason = RETRYABLE_STATUS[status];
  if (!retryReason) {
    if (status === 401 || status === 403) return { retryable: false, reason: "credentials", status };
    // 501, 505 and the like: it cannot serve this at all, and saying so again will not change.
    if (status >= 500) return { retryable: false, reason: "server", status };
    return { retryable: false, reason: REFUSAL.test(err.message) ? "refusal" : "client", status };
  }
  const failure: Failure = { retryable: true, reason: retryReason, status };
  const wait = retryAfterMs(err.upstream, context.now ?? Date.now());
  if (wait !== undefined) failure.retryAfterMs = wait;
  if (status === 429 && context.ownCredential) failure.ownExcess = true;
  return failure;
}

/** The wait an upstream asked for, in ms: retry-after-ms first (finer), else Retry-After. */
export function retryAfterMs(headers: { retryAfter?: string; retryAfterMs?: string }, now: number): number | undefined {
  if (headers.retryAfterMs !== undefined) {
    const ms = Number(headers.retryAfterMs);
    if (headers.retryAfterMs.trim() !== "" && Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  }
  return headers.retryAfter === undefined ? undefined : parseRetryAfter(headers.retryAfter, now);
}

/** Retry-After as ms from `now`: delta-seconds or an HTTP date (a date past is no wait); anything else undefined. */
export function parseRetryAfter(value: string, now: number): number | undefined {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  // An HTTP date names its month; Date.parse alone would take "-1" for a year.
  const at = /[a-z]{3}/i.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** What the breaker counts for an attempt's end: only the deployment's own ill health is a failure. */
export function breakerOutcome(failure: Failure | null): BreakerOutcome {
  if (!failure) return "success";
  if (failure.ownExcess || failure.reason === "cancelled" || failure.reason === "unknown") return "not-counted";
  // It answered, and the request was at fault: the deployment is healthy.
  if (!failure.retryable && failure.reason !== "credentials" && failure.reason !== "server") return "success";
  return "failure";
}

export type BackoffOptions = { baseMs: number; maxMs: number; random?: () => number };

/** Exponential backoff with full jitter: uniform in [0, min(maxMs, baseMs·2^attempt)), attempt counted from 0. */
export function backoffMs(attempt: number, { baseMs, maxMs, random = Math.random }: BackoffOptions): number {
  return Math.floor(random() * Math.min(maxMs, baseMs * 2 ** attempt));
}

export type RetryPolicy = BackoffOptions & {
  /** Attempts in all, the first included, across deployments. */
  maxAttempts: number;
  /** An attempt is not started with less time than this left before the deadline. */
  minAttemptMs: number;
  now?: () => number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseMs: 250, maxMs: 4_000, minAttemptMs: 1_000 };

/**
 * After a failed attempt: wait and try again (this deployment or the next), move at once to the next
 * deployment (this one asked for a wait longer than the request has), or give up.
 */
export type NextStep =
  | { action: "retry"; waitMs: number }
  | { action: "next-deployment" }
  | { action: "give-up"; why: "not-retryable" | "attempts" | "deadline" };

/** One request's retries: its attempts and its total deadline (ms since the epoch, the CallStop's end). */
export class RetryBudget {
  private readonly now: () => number;

  constructor(
    readonly deadlineAt: number,
    private readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  ) {
    this.now = policy.now ?? Date.now;
  }

  /** Time left before the deadline, in ms (never below 0). */
  remainingMs(): number {
    return Math.max(0, this.deadlineAt - this.now());
  }

  planNext(attemptsSoFar: number, failure: Failure): NextStep {
    if (!failure.retryable) return { action: "give-up", why: "not-retryable" };
    if (attemptsSoFar >= this.policy.maxAttempts) return { action: "give-up", why: "attempts" };
    const usable = this.remainingMs() - this.policy.minAttemptMs;
    if (usable < 0) return { action: "give-up", why: "deadline" };
    const backoff = backoffMs(attemptsSoFar - 1, this.policy);
    const waitMs = Math.max(backoff, failure.retryAfterMs ?? 0);
    // Sleeping past the deadline only to fail: another deployment may answer now.
    if (waitMs > usable) return { action: "next-deployment" };
    return { action: "retry", waitMs };
  }
}

/** Waits `ms`, or less when `stop` stops first (the client left, the deadline passed); true when it waited it all. */
export function pause(ms: number, stop: CallStop): Promise<boolean> {
  if (stop.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onStop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      stop.off("abort", onStop);
      resolve(true);
    }, ms);
    stop.once("abort", onStop);
  });
}
