import type { InjectionSignal } from "./injection.ts";
import type { PiiKind } from "./pii.ts";
import type { GuardrailAction, GuardrailCheck } from "./policy.ts";
import type { ModerationCategory } from "./remote-config.ts";

/**
 * One check that fired on a request: where, what it did, and what it found (personal data by kind, an
 * injection's signs, how many of each; an injection's score), never a value or the text.
 */
export type GuardrailDecision = {
  policy: string;
  check: GuardrailCheck;
  action: GuardrailAction;
  /** The caller's prompt, the model's answer, or a tool's result an agent was about to read. */
  stage: "prompt" | "answer" | "tool";
  /**
   * By kind: personal data's kinds, an injection's signs, "term", "pattern" and "profanity" (words), "chars" (length),
   * moderation's categories, "denied" (a webhook said no), "error" (a remote check did not answer),
   * "schema" (an answer's JSON the policy's schema refused).
   */
  found: Partial<
    Record<
      | PiiKind
      | InjectionSignal
      | "term"
      | "pattern"
      | "profanity"
      | "chars"
      | ModerationCategory
      | "denied"
      | "error"
      | "schema",
      number
    >
  >;
  score?: number;
  /** Where and why an answer failed the json_schema check ("/age type", "not JSON"): ajv's path and keyword, never a value. */
  reason?: string;
};
