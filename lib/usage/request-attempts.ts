import { z } from "zod";
import { toSafeText } from "../gateway/http/safe-text.ts";

/**
 * One attempt of a routed model call as the request log keeps it (usage_events.attempts): the router's
 * AttemptRecord (lib/llm/routing/router.ts), bounded. `reason` is the router's word for a failure or a
 * skip ("rate-limited", "breaker-open"...), `status` the deployment's HTTP status when it answered.
 */
export type RequestAttempt = {
  deployment: string;
  provider: string;
  model: string;
  status?: number;
  ms: number;
  outcome: "ok" | "retried" | "failed" | "skipped";
  reason?: string;
  /** Sent on the calling key owner's own provider key (GATEWAY_OWNER_KEYS), not the operator's. */
  ownerKey?: true;
};

/** The most attempts one request keeps: a long chain keeps its first ones and the last (the one that answered or gave up). */
export const MAX_ATTEMPTS = 20;
/** The longest name or reason kept: deployment names come from the operator, model ids from clients. */
export const MAX_ATTEMPT_TEXT = 200;

/**
 * Whether a routed call's attempts are worth a row's column: anything but one attempt that answered on
 * the operator's key. A call on the owner's own key is always kept: it is how its usage row says so.
 */
export function worthKeeping(attempts: readonly RequestAttempt[]): boolean {
  return (
    attempts.length > 1 || (attempts.length === 1 && attempts[0]!.outcome !== "ok") || attempts.some((a) => a.ownerKey)
  );
}

// Cut first: a cut through a surrogate pair leaves half of it, which toSafeText replaces.
const text = (s: string) => toSafeText(s.length > MAX_ATTEMPT_TEXT ? s.slice(0, MAX_ATTEMPT_TEXT) : s);

/** One attempt copied as stored: names cut to MAX_ATTEMPT_TEXT and storable (no NUL, no lone surrogate), whole ms. */
function storable(a: RequestAttempt): RequestAttempt {
  return {
    deployment: text(a.deployment),
    provider: text(a.provider),
    model: text(a.model),
    ...(a.status !== undefined && { status: a.status }),
    ms: Math.max(0, Math.round(a.ms)),
    outcome: a.outcome,
    ...(a.reason !== undefined && { reason: text(a.reason) }),
    ...(a.ownerKey && { ownerKey: true as const }),
  };
}

/**
 * `more` added after `kept` (a request may route more than one call), bounded to MAX_ATTEMPTS: past it
 * the newest attempt replaces the last kept one, so the list always ends with how the request ended.
 */
export function appendAttempts(kept: readonly RequestAttempt[], more: readonly RequestAttempt[]): RequestAttempt[] {
  const all = [...kept];
  for (const a of more) {
    if (all.length === MAX_ATTEMPTS) all.pop();
    all.push(storable(a));
  }
  return all;
}

const storedAttempt = z.object({
  deployment: z.string(),
  provider: z.string(),
  model: z.string(),
  status: z.number().int().optional(),
  ms: z.number(),
  outcome: z.enum(["ok", "retried", "failed", "skipped"]),
  reason: z.string().optional(),
  ownerKey: z.literal(true).optional(),
});
const storedAttempts = z.array(storedAttempt).max(MAX_ATTEMPTS);

/** A row's attempts column as read back: null when absent, or when it holds anything this version cannot read. */
export function attemptsOfColumn(value: unknown): RequestAttempt[] | null {
  if (value === null || value === undefined) return null;
  const parsed = storedAttempts.safeParse(value);
  return parsed.success ? parsed.data : null;
}
