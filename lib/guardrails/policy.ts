// Guardrail policies, as the routing file declares them under "guardrails": a name, the checks to run on a
// model call's prompt (pii: personal data; injection: prompt-injection heuristics; words: the operator's
// terms and profanity; length: a prompt's size; moderation and webhook: remote checks, remote-checks.ts)
// (pii and words run on the answer too when `stages` lists it; json_schema: the answer's JSON, answer-schema.ts)
// and the action when one fires: redact (placeholders to the provider, the values put back in the answer;
// listed words masked; an injection, a length or a remote check's verdict cannot be redacted, so under
// redact they are flagged), block (the surface's 400, saying why) or flag (the request log
// and the header only). A key names its policy (keys CLI --guardrails); a team may name one for its keys
// without their own (keys CLI set-guardrails), and an alias for every key without either.
import type { ValidateFunction } from "ajv";
import { z } from "zod";
import { compileAnswerSchema } from "./answer-schema.ts";
import { DEFAULT_INJECTION_THRESHOLD } from "./injection.ts";
import { PII_KINDS, type PiiKind } from "./pii.ts";
import { moderationSchema, webhookSchema, type ModerationSettings, type WebhookSettings } from "./remote-config.ts";
import { patternProblem, wordsMatcher, type WordsMatcher } from "./words.ts";

export const GUARDRAIL_CHECKS = [
  "pii",
  "injection",
  "words",
  "length",
  "moderation",
  "webhook",
  "json_schema",
] as const;
export const GUARDRAIL_STAGES = ["prompt", "answer"] as const;
export const GUARDRAIL_ACTIONS = ["redact", "block", "flag"] as const;
export type GuardrailCheck = (typeof GUARDRAIL_CHECKS)[number];
export type GuardrailAction = (typeof GUARDRAIL_ACTIONS)[number];

export const guardrailPolicySchema = z
  .strictObject({
    checks: z
      .array(z.enum(GUARDRAIL_CHECKS, { error: `one of ${GUARDRAIL_CHECKS.join(", ")}` }))
      .min(1, { error: "a policy needs at least one check" }),
    action: z.enum(GUARDRAIL_ACTIONS, { error: `one of ${GUARDRAIL_ACTIONS.join(", ")}` }),
    // Where pii and words run: the prompt when left out. Optional rather than defaulted, so a policy built
    // in code (toPolicy) need not name it either.
    stages: z
      .array(z.enum(GUARDRAIL_STAGES, { error: `one of ${GUARDRAIL_STAGES.join(", ")}` }))
      .min(1)
      .optional(),
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
        patterns: z
          .array(
            z
              .string()
              .min(1)
              .max(500)
              .superRefine((source, ctx) => {
                const problem = patternProblem(source);
                if (problem) ctx.addIssue({ code: "custom", message: problem });
              }),
          )
          .max(100)
          .optional(),
        profanity: z.boolean().optional(),
      })
      .optional(),
    length: z.strictObject({ max_chars: z.number().int().positive().max(100_000_000) }).optional(),
    moderation: moderationSchema.optional(),
    webhook: webhookSchema.optional(),
    json_schema: z.strictObject({ schema: z.record(z.string(), z.unknown()) }).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.checks.includes("words") && !p.words?.terms?.length && !p.words?.patterns?.length && !p.words?.profanity)
      ctx.addIssue({
        code: "custom",
        path: ["words"],
        message: "the words check needs words.terms, words.patterns or words.profanity",
      });
    if (p.checks.includes("length") && !p.length)
      ctx.addIssue({ code: "custom", path: ["length"], message: "the length check needs length.max_chars" });
    if (p.checks.includes("webhook") && !p.webhook)
      ctx.addIssue({ code: "custom", path: ["webhook"], message: "the webhook check needs webhook.url" });
    if (p.checks.includes("json_schema") && !p.json_schema)
      ctx.addIssue({
        code: "custom",
        path: ["json_schema"],
        message: "the json_schema check needs json_schema.schema",
      });
    if (p.json_schema)
      try {
        compileAnswerSchema(p.json_schema.schema);
      } catch (err) {
        ctx.addIssue({
          code: "custom",
          path: ["json_schema", "schema"],
          message: `not a JSON schema: ${(err as Error).message}`,
        });
      }
  });

/** A policy as the routing file declares it, once parsed: what a worker thread rebuilds the policy from. */
export type GuardrailPolicySpec = z.output<typeof guardrailPolicySchema>;

export type GuardrailPolicy = {
  name: string;
  /** As declared: a prompt checked on a worker thread (prompt-offload.ts) sends this, as a policy's matchers cannot cross. */
  spec: GuardrailPolicySpec;
  checks: readonly GuardrailCheck[];
  action: GuardrailAction;
  /** The personal data the pii check looks for: every kind unless the policy names some. */
  piiKinds: ReadonlySet<PiiKind>;
  /** The injection score at or above which the injection check fires. */
  injectionThreshold: number;
  /** The words check's matcher, made once from the policy's terms and profanity setting. */
  words?: WordsMatcher;
  /** What the words check lists, as counts: a page describing the policy shows these, never the terms. */
  wordsListed?: { terms: number; patterns: number; profanity: boolean };
  /** The length check's limit: characters of the whole prompt. */
  maxChars?: number;
  /** The remote checks' settings, each present when the policy runs it. */
  moderation?: ModerationSettings;
  webhook?: WebhookSettings;
  /** Whether a check calls out (moderation, webhook): only then does a call wait on the network before it goes on. */
  remote: boolean;
  /** Whether pii and words run on the prompt, and on the answer (`stages`). */
  prompt: boolean;
  answer: boolean;
  /** The json_schema check's validator, compiled as the routing file was read. */
  answerSchema?: ValidateFunction;
};

export function toPolicy(name: string, spec: GuardrailPolicySpec): GuardrailPolicy {
  return {
    name,
    spec,
    checks: spec.checks,
    action: spec.action,
    piiKinds: new Set(spec.pii?.kinds ?? PII_KINDS),
    injectionThreshold: spec.injection?.threshold ?? DEFAULT_INJECTION_THRESHOLD,
    ...(spec.checks.includes("words") &&
      spec.words && {
        words: wordsMatcher(spec.words),
        wordsListed: {
          terms: spec.words.terms?.length ?? 0,
          patterns: spec.words.patterns?.length ?? 0,
          profanity: spec.words.profanity === true,
        },
      }),
    ...(spec.checks.includes("length") && spec.length && { maxChars: spec.length.max_chars }),
    ...(spec.checks.includes("moderation") && { moderation: spec.moderation ?? moderationSchema.parse({}) }),
    ...(spec.checks.includes("webhook") && spec.webhook && { webhook: spec.webhook }),
    remote: spec.checks.includes("moderation") || spec.checks.includes("webhook"),
    prompt: spec.stages?.includes("prompt") ?? true,
    answer: spec.stages?.includes("answer") === true,
    ...(spec.checks.includes("json_schema") &&
      spec.json_schema && { answerSchema: compileAnswerSchema(spec.json_schema.schema) }),
  };
}
