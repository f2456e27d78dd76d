import { z } from "@hono/zod-openapi";
import { generateText, NoObjectGeneratedError, Output, type ModelMessage } from "ai";
import { GatewayError } from "../../errors.ts";
import type { Call } from "../../gateway/pipeline/call.ts";
import { usageOf } from "../../llm/chat.ts";
import type { Usage } from "../../llm/chat-types.ts";
import type { ChatTarget } from "../../llm/call/index.ts";
import { chatRoute } from "../../llm/compat/routed.ts";
import { providerError } from "../../llm/errors.ts";
import { providerRouteModel } from "../../llm/llm-route-models.ts";
import { languageModel } from "../../llm/models.ts";
import { modelRouter } from "../../llm/routing/runtime-router.ts";
import { modelSchema } from "./model-schema.ts";

/**
 * One templated generation: a prompt builder, the zod schema its answer is parsed with, the schema the
 * model is sent (every rule a schema can say), the fixes that need no model, and the rules left over
 * (a story's graph). Defined once per template and run by `runTemplate` for both request forms.
 */
export type Template<I, S extends z.ZodType> = {
  name: string;
  /** What the model is: the system prompt. */
  system: string;
  /** The user message for this input. */
  prompt(input: I): string;
  /**
   * The model's answer as parsed: its shape, strings trimmed, lengths capped. The counts and bounds the
   * rules check are left to `fix` and `rules`, so an answer with a surplus day is one to fix rather than
   * one to throw away.
   */
  schema: S;
  /**
   * The schema the model is sent for this input (default `schema`): `schema` plus every rule a schema
   * can carry (item counts, number bounds, values the input fixes), so a model that follows it breaks
   * no rule but those no schema can say.
   */
  sentSchema?(input: I): z.ZodType;
  /** What needs no model, done to every answer before the rules: copy given values, renumber, trim surplus. */
  fix?(result: z.infer<S>, input: I): z.infer<S>;
  /** Problems left after `fix`, each a sentence the model can act on; none = valid. */
  rules?(result: z.infer<S>, input: I): string[];
  /** Output cap for the model (tokens). */
  maxTokens?: number;
};

export type TemplateOptions = {
  /** A provider (its default model) or an alias of the routing file; default xai. */
  provider?: string;
  /** A result still breaking a rule after the repair turn is a 502, not a 200 with warnings. */
  strict?: boolean;
};

export type Generated<T> = {
  result: T;
  provider: string;
  model: string;
  usage: Usage;
  repaired: boolean;
  /** The rules the result still breaks after the repair turn (never with `strict`); empty when none. */
  warnings: string[];
};

/** Every template's request field `strict`. */
export const StrictField = z
  .boolean()
  .default(false)
  .openapi({
    description:
      "Default false: a result still breaking a rule after the repair turn is answered with `warnings` naming " +
      "each rule; true: it is a 502 naming them",
  });

/** Every template's response field `warnings`. */
export const WarningsField = z.array(z.string()).optional().openapi({
  description: "The rules the result still breaks after the repair turn; present only when there are some",
});

/** One answer: its value once parsed and fixed (none when it did not parse), and what is still wrong with it. */
export type Attempt<T> = { value?: T; problems: string[]; text: string };

/**
 * Runs a template with the AI SDK's structured output: the model is sent the template's schema for this
 * input, its answer parsed, fixed where no model is needed, then checked against the rules; on any
 * problem the model gets one repair turn (its answer and the problems, asked to answer again). The
 * better answer is kept; if it still breaks rules, it is the result with those rules as warnings, or a
 * 502 naming them when `strict` is set or no answer parsed at all. Usage covers every call of the
 * attempt that answered. The model is reached through the model router (`provider` may name an alias):
 * a failing deployment is retried or fallen over, both turns on one deployment; provider failures
 * are their GatewayErrors, as on /v1/llm/chat.
 */
export async function runTemplate<I, S extends z.ZodType>(
  c: Call,
  template: Template<I, S>,
  input: I,
  options: TemplateOptions = {},
): Promise<Generated<z.infer<S>>> {
  const route = await chatRoute(c, providerRouteModel(await modelRouter(c.runtime), options.provider), c.requestId);
  // The first turn and its repair are one attempt: a deployment that fails either is left for the next.
  const { attempt, repaired, usage, provider, model } = await route.whole((target, stop) =>
    generate(template, input, target, stop.signal).finally(() => stop.release()),
  );
  if (attempt.value === undefined || (attempt.problems.length && options.strict)) {
    throw new GatewayError(
      502,
      `${provider} did not produce a valid ${template.name} after a repair attempt: ${attempt.problems.slice(0, 5).join("; ")}`,
    );
  }
  return { result: attempt.value, provider, model, usage, repaired, warnings: attempt.problems };
}

type Generation<T> = { attempt: Attempt<T>; repaired: boolean; usage: Usage; provider: string; model: string };

/** A template's turns on one deployment: the first answer, and the repair turn when it breaks a rule. */
async function generate<I, S extends z.ZodType>(
  template: Template<I, S>,
  input: I,
  target: ChatTarget,
  signal: AbortSignal,
): Promise<Generation<z.infer<S>>> {
  const model = languageModel(target.entry, target.modelId);
  const provider = target.entry.name;
  const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  let answeredBy = target.modelId;
  const add = (u: Usage) => {
    usage.prompt_tokens += u.prompt_tokens;
    usage.completion_tokens += u.completion_tokens;
    usage.total_tokens += u.total_tokens;
  };

  const schema = modelSchema(template.sentSchema?.(input) ?? template.schema, template.schema);
  const ask = async (messages: ModelMessage[]): Promise<Attempt<z.infer<S>>> => {
    try {
      const result = await generateText({
        model,
        system: template.system,
        messages,
        output: Output.object({ schema }),
        maxOutputTokens: template.maxTokens,
        maxRetries: 0,
        abortSignal: signal,
      });
      add(usageOf(result.usage));
      answeredBy = result.response?.modelId || answeredBy;
      const answered = result.output as z.infer<S>;
      const value = template.fix ? template.fix(answered, input) : answered;
      return { value, problems: template.rules?.(value, input) ?? [], text: result.text };
    } catch (err) {
      if (!NoObjectGeneratedError.isInstance(err)) throw providerError(provider, err);
      add(usageOf(err.usage));
      return { problems: [schemaProblem(err)], text: err.text ?? "" };
    }
  };

  const first: ModelMessage[] = [{ role: "user", content: template.prompt(input) }];
  let attempt = await ask(first);
  let repaired = false;
  if (attempt.problems.length) {
    repaired = true;
    const second = await ask([
      ...first,
      { role: "assistant", content: attempt.text.slice(0, 40_000) || "(no answer)" },
      { role: "user", content: repairPrompt(attempt.problems) },
    ]);
    attempt = betterAttempt(attempt, second);
  }
  return { attempt, repaired, usage, provider, model: answeredBy };
}

/**
 * The answer kept after a repair turn: the repaired one, unless it did not parse or breaks more rules
 * than the first (a worse second answer must not replace a usable first one).
 */
export function betterAttempt<T>(first: Attempt<T>, second: Attempt<T>): Attempt<T> {
  if (first.value === undefined) return second;
  if (second.value === undefined) return first;
  return first.problems.length < second.problems.length ? first : second;
}

/** The repair turn: the problems, numbered, and the ask to answer again in full. */
export function repairPrompt(problems: readonly string[]): string {
  return (
    "Your answer cannot be used as it is:\n" +
    problems
      .slice(0, 10)
      .map((p, i) => `${i + 1}. ${p}`)
      .join("\n") +
    "\nAnswer again with the complete JSON object, fixing every problem above and keeping what was right."
  );
}

/** The validation message of an answer that was not JSON of the schema, in a sentence. */
function schemaProblem(err: NoObjectGeneratedError): string {
  type Issues = Array<{ path: PropertyKey[]; message: string }>;
  // The SDK wraps the schema's ZodError in a TypeValidationError: the issues are the cause's cause's.
  const cause = err.cause as { issues?: Issues; cause?: { issues?: Issues }; message?: string } | undefined;
  const issues = cause?.issues ?? cause?.cause?.issues;
  if (Array.isArray(issues) && issues.length)
    return `it does not match the schema: ${issues
      .slice(0, 5)
      .map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`)
      .join("; ")}`;
  return `it is not JSON of the required shape (${(cause?.message ?? err.message).slice(0, 200)})`;
}
