import type { RequestAttempt } from "../../usage/request-attempts.ts";

/** The router's reasons (lib/llm/routing/retry.ts FailureReason, and its skips) as a person reads them. */
const REASONS: Record<string, string> = {
  connection: "connection failed",
  timeout: "timed out",
  "rate-limited": "rate-limited",
  overloaded: "overloaded",
  server: "server error",
  credentials: "credential refused",
  client: "request refused",
  refusal: "content refused",
  cancelled: "cancelled: the client left or the deadline passed",
  unknown: "failed",
  "breaker-open": "breaker open",
  "not-configured": "credential not set",
  "denied-by-key": "refused by this key's model rules",
};

/** What an outcome is called in the Attempts table. */
export const OUTCOME_NAMES: Record<RequestAttempt["outcome"], string> = {
  ok: "answered",
  retried: "retried",
  failed: "failed",
  skipped: "skipped",
};

/**
 * Why an attempt ended as it did, and what the router did next: "rate-limited, retried after backoff",
 * "server error, fell over to the next deployment", "breaker open, skipped". `last` says whether it was
 * the request's last attempt (a failure there is where the router gave up).
 */
export function attemptReason(a: RequestAttempt, last: boolean): string {
  const reason = routerReason(a, last);
  return a.ownerKey ? `${reason} (on the owner's own provider key)` : reason;
}

function routerReason(a: RequestAttempt, last: boolean): string {
  const why = a.reason === undefined ? undefined : (REASONS[a.reason] ?? a.reason);
  switch (a.outcome) {
    case "ok":
      return "answered";
    case "skipped":
      return `${why ?? "not tried"}, skipped`;
    case "retried":
      return `${why ?? "failed"}, retried after backoff`;
    case "failed":
      return `${why ?? "failed"}, ${last ? "gave up" : "fell over to the next deployment"}`;
  }
}
