import type { InjectionSignal } from "./injection.ts";
import type { PiiKind } from "./pii.ts";
import type { GuardrailAction, GuardrailCheck } from "./policy.ts";

/**
 * One check that fired on a request: where, what it did, and what it found (personal data by kind, an
 * injection's signs, how many of each; an injection's score), never a value or the text.
 */
export type GuardrailDecision = {
  policy: string;
  check: GuardrailCheck;
  action: GuardrailAction;
  /** The caller's prompt, or a tool's result an agent was about to read. */
  stage: "prompt" | "tool";
  /** By kind: personal data's kinds, an injection's signs, "term" and "profanity" (words), "chars" (length). */
  found: Partial<Record<PiiKind | InjectionSignal | "term" | "profanity" | "chars", number>>;
  score?: number;
};
