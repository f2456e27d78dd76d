// A model call's prompt under its guardrail policy: every text the caller wrote, in whichever surface's
// form (messages and their parts, a system prompt, instructions, input, prompt), checked; a block
// refuses the call, a redaction rewrites the texts in place before anything is sent, a flag changes
// nothing. What fired is recorded by kind and count only, never the values.
import { GatewayError } from "../errors.ts";
import type { Routing } from "../llm/routing/deployments.ts";
import type { GuardrailDecision } from "./decision.ts";
import { findPii, PII_KINDS, type PiiKind } from "./pii.ts";
import type { GuardrailPolicy } from "./policy.ts";
import { redact } from "./redaction.ts";

/** What the policy decided: the decisions to record, the placeholders to put back, and a block's reason. */
export type PromptGuard = { decisions: GuardrailDecision[]; values: Map<string, string>; refusal?: string };

type Slot = { read(): string; write(text: string): void };
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A field holding text: a string, or a list of parts whose `text` fields are. */
function slotsOf(holder: Json, field: string): Slot[] {
  const value = holder[field];
  if (typeof value === "string") return [{ read: () => holder[field] as string, write: (t) => (holder[field] = t) }];
  if (!Array.isArray(value)) return [];
  return value.flatMap((part: unknown) => {
    if (typeof part === "string") {
      const i = value.indexOf(part);
      return [{ read: () => value[i] as string, write: (t: string) => (value[i] = t) }];
    }
    if (!isObject(part)) return [];
    // A message item of the Responses API holds its own content; a part holds text.
    return "content" in part ? slotsOf(part, "content") : slotsOf(part, "text");
  });
}

/** Every text a caller wrote in a model call's body, in order. */
export function promptSlots(body: Json): Slot[] {
  const slots = [...slotsOf(body, "system"), ...slotsOf(body, "instructions"), ...slotsOf(body, "prompt")];
  if (Array.isArray(body.messages))
    for (const m of body.messages) if (isObject(m)) slots.push(...slotsOf(m, "content"));
  slots.push(...slotsOf(body, "input"));
  return slots;
}

/**
 * Checks (and, under a redacting policy, rewrites) the prompt of `body` in place: what fired, the
 * placeholders to put back in the answer, and under a blocking policy the reason the call is refused.
 */
export function guardPrompt(policy: GuardrailPolicy, body: Json): PromptGuard {
  const values = new Map<string, string>();
  const found: Partial<Record<PiiKind, number>> = {};
  for (const slot of promptSlots(body)) {
    const findings = findPii(slot.read(), policy.piiKinds);
    if (findings.length === 0) continue;
    for (const f of findings) found[f.kind] = (found[f.kind] ?? 0) + 1;
    if (policy.action === "redact") slot.write(redact(slot.read(), findings, values).text);
  }
  const kinds = PII_KINDS.filter((kind) => found[kind] !== undefined);
  if (kinds.length === 0) return { decisions: [], values };
  const decisions: GuardrailDecision[] = [
    { policy: policy.name, check: "pii", action: policy.action, stage: "prompt", found },
  ];
  if (policy.action !== "block") return { decisions, values };
  const refusal = `guardrails: the prompt holds personal data (${kinds.join(", ").replaceAll("_", " ")}), which the policy "${policy.name}" does not let through`;
  return { decisions, values, refusal };
}

/**
 * The policy a model call is under: its key's, else the alias's it names. A policy the routing file no
 * longer declares refuses the call (503) rather than letting it through unchecked.
 */
export function policyFor(
  routing: Pick<Routing, "aliases" | "guardrails">,
  keyPolicy: string | undefined,
  body: Json,
): GuardrailPolicy | undefined {
  const name = keyPolicy ?? (typeof body.model === "string" ? routing.aliases.get(body.model)?.guardrails : undefined);
  if (name === undefined) return undefined;
  const policy = routing.guardrails.get(name);
  if (!policy)
    throw new GatewayError(
      503,
      `guardrails: the policy "${name}" this call is under is not in the routing file; the operator must declare it again`,
    );
  return policy;
}

/** The header listing what fired: `check:action` each, as `x-gateway-guardrails` carries it. */
export const guardrailHeader = (decisions: readonly GuardrailDecision[]) =>
  [...new Set(decisions.map((d) => `${d.check}:${d.action}`))].join(", ");
