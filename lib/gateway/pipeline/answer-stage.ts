// The pipeline's side of a guardrail policy's answer stage (lib/guardrails/answer-guard.ts for whole
// answers, answer-stream.ts for streams): what fired goes on the request's log row, in /metrics and (on a
// whole answer, whose headers are not sent yet) in x-gateway-guardrails; a blocked answer is metered as the
// 422 it is, with the tokens the call spent all the same.
import { GatewayError } from "../../errors.ts";
import { guardAnswer } from "../../guardrails/answer-guard.ts";
import { guardingEvents } from "../../guardrails/answer-stream.ts";
import type { GuardrailDecision } from "../../guardrails/decision.ts";
import type { GuardrailPolicy } from "../../guardrails/policy.ts";
import { guardrailHeader } from "../../guardrails/prompt-guard.ts";
import type { UsageRequest, usageRecorder } from "../http/guard.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { Call } from "./call.ts";
import type { ReplyBody } from "./answer.ts";
import type { EventSource } from "../http/event-stream.ts";

/** The part of the pipeline's outcome the answer stage reads and rewrites. */
type Outcome = { status: number; body: ReplyBody; events?: EventSource };

type Recorder = ReturnType<typeof usageRecorder>;

/** Decisions on the request's log row (read when it is recorded) and in /metrics. */
function note(rt: Runtime, logged: UsageRequest, decisions: readonly GuardrailDecision[]): void {
  logged.guardrails = [...(logged.guardrails ?? []), ...decisions];
  for (const d of decisions) rt.metrics.guardrailDecisions.inc({ check: d.check, action: d.action });
}

/**
 * A model call's answer under its policy's answer stage, as the provider gave it (before the prompt's
 * placeholders are put back). A whole answer is checked here: a block throws the 422 (metered, as any
 * error after the handler, with the usage the call reported), a redaction rewrites the body. A stream is
 * wrapped to be checked as it goes: a block part way is metered as a 422 when the stream ends. What the
 * handler kept of a blocked answer (a stored response) is forgotten. Returns the recorder to meter with.
 */
export async function checkAnswer(
  rt: Runtime,
  policy: GuardrailPolicy,
  call: Call,
  outcome: Outcome,
  logged: UsageRequest,
  headers: Record<string, string | number>,
  record: Recorder | undefined,
): Promise<Recorder | undefined> {
  if (outcome.events) {
    let refusal: string | undefined;
    outcome.events = guardingEvents(outcome.events, policy, (decisions, refused) => {
      note(rt, logged, decisions);
      if (refused === undefined) return;
      refusal = refused;
      void call.forgetAnswer?.();
    });
    if (!record) return record;
    const meter = record;
    return (status, bytesOut, usage, attempts, error) =>
      meter(refusal ? 422 : status, bytesOut, usage, attempts, error ?? refusal);
  }
  if (outcome.status !== 200 || typeof outcome.body !== "string") return record;
  const guard = guardAnswer(policy, outcome.body);
  if (guard.decisions.length === 0) return record;
  note(rt, logged, guard.decisions);
  headers["x-gateway-guardrails"] = guardrailHeader(logged.guardrails!);
  if (guard.refusal) {
    await call.forgetAnswer?.();
    throw new GatewayError(422, guard.refusal);
  }
  if (guard.body !== undefined) outcome.body = guard.body;
  return record;
}
