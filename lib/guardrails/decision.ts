import type { PiiKind } from "./pii.ts";
import type { GuardrailAction, GuardrailCheck } from "./policy.ts";

/** One check that fired on a request: where, what it did, and the kinds it found (how many of each), never a value. */
export type GuardrailDecision = {
  policy: string;
  check: GuardrailCheck;
  action: GuardrailAction;
  stage: "prompt";
  found: Partial<Record<PiiKind, number>>;
};
