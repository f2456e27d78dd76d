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
  stage: "prompt";
  found: Partial<Record<PiiKind | InjectionSignal, number>>;
  score?: number;
};
