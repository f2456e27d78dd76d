// A model call's prompt under its guardrail policy: every text the caller wrote, in whichever surface's
// form (messages and their parts, a system prompt, instructions, input, prompt), checked; a block
// refuses the call, a redaction rewrites the texts in place before anything is sent, a flag changes
// nothing. What fired is recorded by kind and count only, never the values.
import { GatewayError } from "../errors.ts";
import type { Routing } from "../llm/routing/deployments.ts";
import type { GuardrailDecision } from "./decision.ts";
import { scoreInjection, type InjectionResult } from "./injection.ts";
import { findPii, PII_KINDS, type PiiKind } from "./pii.ts";
import type { GuardrailPolicy } from "./policy.ts";
import { redact } from "./redaction.ts";
import { maskWords, wordsFoundText, type WordsFound } from "./words.ts";

/**
 * What the policy decided: the decisions to record, the placeholders to put back, and a block's reason;
 * `refusalStatus` 503 when the refusal is a remote check's that did not answer (remote-checks.ts), else 400.
 */
export type PromptGuard = {
  decisions: GuardrailDecision[];
  values: Map<string, string>;
  refusal?: string;
  refusalStatus?: 503;
};

/** A text of the prompt; `operator` when it is the caller's own instructions (a system or developer message). */
export type Slot = { read(): string; write(text: string): void; operator?: boolean };
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

const asOperator = (slots: Slot[]): Slot[] => slots.map((slot) => ({ ...slot, operator: true }));

/** Every text a caller wrote in a model call's body, in order. */
export function promptSlots(body: Json): Slot[] {
  const slots = [...asOperator(slotsOf(body, "system")), ...asOperator(slotsOf(body, "instructions"))];
  slots.push(...slotsOf(body, "prompt"));
  const fromOperator = (m: Json) => m.role === "system" || m.role === "developer";
  if (Array.isArray(body.messages))
    for (const m of body.messages)
      if (isObject(m)) slots.push(...(fromOperator(m) ? asOperator(slotsOf(m, "content")) : slotsOf(m, "content")));
  // The Responses API's input: a string, or items (messages with a role, or parts); a system or
  // developer item's texts are the operator's.
  const input = slotsOf(body, "input");
  if (Array.isArray(body.input)) {
    const operatorTexts = new Set(
      body.input.flatMap((item: unknown) =>
        isObject(item) && fromOperator(item) ? slotsOf(item, "content").map((slot) => slot.read()) : [],
      ),
    );
    slots.push(...input.map((slot) => (operatorTexts.has(slot.read()) ? { ...slot, operator: true } : slot)));
  } else slots.push(...input);
  return slots;
}

/**
 * Checks (and, under a redacting policy, rewrites) the prompt of `body` in place: what fired, the
 * placeholders to put back in the answer, and under a blocking policy the reason the call is refused.
 */
export function guardPrompt(
  policy: GuardrailPolicy,
  body: Json,
  /** `body`'s texts, when the caller has them already (prompt-offload.ts counts them first). */
  slots: Slot[] = promptSlots(body),
): PromptGuard {
  const values = new Map<string, string>();
  const decisions: GuardrailDecision[] = [];
  const refusals: string[] = [];
  if (policy.checks.includes("pii") && policy.prompt) {
    const found: Partial<Record<PiiKind, number>> = {};
    for (const slot of slots) {
      const findings = findPii(slot.read(), policy.piiKinds);
      if (findings.length === 0) continue;
      for (const f of findings) found[f.kind] = (found[f.kind] ?? 0) + 1;
      if (policy.action === "redact") slot.write(redact(slot.read(), findings, values).text);
    }
    const kinds = PII_KINDS.filter((kind) => found[kind] !== undefined);
    if (kinds.length) {
      decisions.push({ policy: policy.name, check: "pii", action: policy.action, stage: "prompt", found });
      refusals.push(`the prompt holds personal data (${kinds.join(", ").replaceAll("_", " ")})`);
    }
  }
  if (policy.checks.includes("injection")) {
    // The caller's own system and developer messages are theirs to word as they like: only the rest,
    // where a user's or a document's text lands, is scored.
    let worst: InjectionResult = { score: 0, signals: {} };
    for (const slot of slots) {
      if (slot.operator) continue;
      const result = scoreInjection(slot.read());
      if (result.score > worst.score) worst = result;
    }
    if (worst.score >= policy.injectionThreshold) {
      const action = policy.action === "redact" ? "flag" : policy.action;
      decisions.push({
        policy: policy.name,
        check: "injection",
        action,
        stage: "prompt",
        found: worst.signals,
        score: worst.score,
      });
      refusals.push(
        `the prompt looks like a prompt injection (score ${worst.score}: ${Object.keys(worst.signals).join(", ")})`,
      );
    }
  }
  if (policy.words && policy.prompt) {
    // As with injections, the caller's own system messages are theirs: only what users sent is matched.
    const found: WordsFound = {};
    for (const slot of slots) {
      if (slot.operator) continue;
      const findings = policy.words(slot.read());
      if (findings.length === 0) continue;
      for (const f of findings) found[f.kind] = (found[f.kind] ?? 0) + 1;
      if (policy.action === "redact") slot.write(maskWords(slot.read(), findings));
    }
    if (found.term || found.pattern || found.profanity) {
      decisions.push({ policy: policy.name, check: "words", action: policy.action, stage: "prompt", found });
      refusals.push(`the prompt holds ${wordsFoundText(found)}`);
    }
  }
  if (policy.maxChars !== undefined) {
    let chars = 0;
    for (const slot of slots) chars += slot.read().length;
    if (chars > policy.maxChars) {
      const action = policy.action === "redact" ? "flag" : policy.action;
      decisions.push({ policy: policy.name, check: "length", action, stage: "prompt", found: { chars } });
      refusals.push(`the prompt is ${chars} characters, over the policy's limit of ${policy.maxChars}`);
    }
  }
  if (policy.action !== "block" || decisions.length === 0) return { decisions, values };
  return {
    decisions,
    values,
    refusal: `guardrails: ${refusals.join("; ")}, which the policy "${policy.name}" does not let through`,
  };
}

/** The policies a key's calls may be under before its alias's, nearest first (LevelDirectory.guardrailsOf). */
export type KeyPolicyNames = { key?: string; team?: string };

/**
 * The policy a model call is under: its key's, else its key's team's, else the alias's it names. A policy
 * the routing file no longer declares refuses the call (503) rather than letting it through unchecked.
 */
export function policyFor(
  routing: Pick<Routing, "aliases" | "guardrails">,
  names: KeyPolicyNames,
  body: Json,
): GuardrailPolicy | undefined {
  const name =
    names.key ??
    names.team ??
    (typeof body.model === "string" ? routing.aliases.get(body.model)?.guardrails : undefined);
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
