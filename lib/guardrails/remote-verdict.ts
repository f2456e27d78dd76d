// What a remote check (moderation, webhook) says of a prompt, before its policy decides what to do with it.
import { GatewayError } from "../errors.ts";
import type { GuardrailDecision } from "./decision.ts";

/**
 * Nothing to report; something found (by kind, with a score when the check gives one, and `why` for a
 * refusal); or no usable answer, with `why` for the caller (no URL, no address) and `detail` for the log.
 */
export type RemoteVerdict =
  | { kind: "pass" }
  | { kind: "found"; found: GuardrailDecision["found"]; score?: number; why: string }
  | { kind: "failed"; why: string; detail: string };

/** A call that failed (the upstream helpers' GatewayErrors, a body that is not JSON) as a verdict. */
export function failure(err: unknown, timeoutMs: number): RemoteVerdict {
  const detail = err instanceof Error ? err.message : String(err);
  if (err instanceof SyntaxError) return { kind: "failed", why: "an answer that is not JSON", detail };
  if (err instanceof GatewayError && err.status === 504)
    return { kind: "failed", why: `no answer within ${timeoutMs} ms`, detail };
  if (err instanceof GatewayError && err.status === 403)
    return { kind: "failed", why: "its address is refused by the outbound address policy", detail };
  return { kind: "failed", why: "unreachable or a broken answer", detail };
}
