// Guardrail policies, as the routing file declares them under "guardrails": a name, the checks to run on a
// model call's prompt (pii: personal data; injection: prompt-injection heuristics; words: the operator's
// terms and profanity; length: a prompt's size) and the action when one fires: redact (placeholders to the
// provider, the values put back in the answer; listed words masked; an injection or a length cannot be
// redacted, so under redact they are flagged), block (the surface's 400, saying why) or flag (the request log
// and the header only). A key names its policy (keys CLI --guardrails); an alias may name one for every key
// without its own.
import { z } from "zod";
import { DEFAULT_INJECTION_THRESHOLD } from "./injection.ts";
import { PII_KINDS, type PiiKind } from "./pii.ts";
import { wordsMatcher, type WordsMatcher } from "./words.ts";

export const GUARDRAIL_CHECKS = ["pii", "injection", "words", "length"] as const;
export const GUARDRAIL_ACTIONS = ["redact", "block", "flag"] as const;
export type GuardrailCheck = (typeof GUARDRAIL_CHECKS)[number];
export type GuardrailAction = (typeof GUARDRAIL_ACTIONS)[number];

export const guardrailPolicySchema = z
  .strictObject({
    checks: z
      .array(z.enum(GUARDRAIL_CHECKS, { error: `one of ${GUARDRAIL_CHECKS.join(", ")}` }))
      .min(1, { error: "a policy needs at least one check" }),
    action: z.enum(GUARDRAIL_ACTIONS, { error: `one of ${GUARDRAIL_ACTIONS.join(", ")}` }),
    pii: z
      .strictObject({
        kinds: z.array(z.enum(PII_KINDS, { error: `one of ${PII_KINDS.join(", ")}` })).min(1),
      })
      .optional(),
    injection: z
      .strictObject({
        threshold: z.number().min(0.05).max(1),
      })
      .optional(),
    words: z
      .strictObject({
        terms: z.array(z.string().trim().min(1).max(100)).max(1000).optional(),
        profanity: z.boolean().optional(),
      })
      .optional(),
    length: z.strictObject({ max_chars: z.number().int().positive().max(100_000_000) }).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.checks.includes("words") && !p.words?.terms?.length && !p.words?.profanity)
      ctx.addIssue({
        code: "custom",
        path: ["words"],
        message: "the words check needs words.terms or words.profanity",
      });
    if (p.checks.includes("length") && !p.length)
      ctx.addIssue({ code: "custom", path: ["length"], message: "the length check needs length.max_chars" });
  });

export type GuardrailPolicy = {
  name: string;
  checks: readonly GuardrailCheck[];
  action: GuardrailAction;
  /** The personal data the pii check looks for: every kind unless the policy names some. */
  piiKinds: ReadonlySet<PiiKind>;
  /** The injection score at or above which the injection check fires. */
  injectionThreshold: number;
  /** The words check's matcher, made once from the policy's terms and profanity setting. */
  words?: WordsMatcher;
  /** The length check's limit: characters of the whole prompt. */
  maxChars?: number;
};

export function toPolicy(name: string, spec: z.output<typeof guardrailPolicySchema>): GuardrailPolicy {
  return {
    name,
    checks: spec.checks,
    action: spec.action,
    piiKinds: new Set(spec.pii?.kinds ?? PII_KINDS),
    injectionThreshold: spec.injection?.threshold ?? DEFAULT_INJECTION_THRESHOLD,
    ...(spec.checks.includes("words") && spec.words && { words: wordsMatcher(spec.words) }),
    ...(spec.checks.includes("length") && spec.length && { maxChars: spec.length.max_chars }),
  };
}
