import { generateText, NoObjectGeneratedError, Output, type ModelMessage } from "ai";
import type { z } from "zod";
import { GatewayError } from "../../errors.ts";
import { DEFAULT_PROVIDER } from "../../upstream/llm-catalogue.ts";
import { usageOf } from "../llm/chat.ts";
import type { Usage } from "../llm/chat-types.ts";
import { providerError } from "../llm/errors.ts";
import { configuredProvider, languageModel } from "../llm/models.ts";
import { withDeadline } from "../../upstream/deadline.ts";

/**
 * One templated generation: a prompt builder and the zod schema of what the model must answer, plus
 * the rules a schema cannot say (a story's graph, an itinerary's day count). Defined once per template
 * and run by `runTemplate` for both request forms.
 */
export type Template<I, S extends z.ZodType> = {
  name: string;
  /** What the model is: the system prompt. */
  system: string;
  /** The user message for this input. */
  prompt(input: I): string;
  /** The model's answer, validated (strings trimmed, lengths capped): the first line of defence. */
  schema: S;
  /** Problems the schema cannot express, each a sentence the model can act on; none = valid. */
  rules?(result: z.infer<S>, input: I): string[];
  /** Output cap for the model (tokens). */
  maxTokens?: number;
};

export type TemplateOptions = { provider?: string; signal?: AbortSignal; timeoutMs?: number };

export type Generated<T> = { result: T; provider: string; model: string; usage: Usage; repaired: boolean };

const TIMEOUT_MS = 120_000;

type Attempt<T> = { ok: true; value: T; text: string } | { ok: false; problems: string[]; text: string };

/**
 * Runs a template with the AI SDK's structured output: the answer is parsed against the schema and
 * checked against the rules; on any problem the model gets one repair turn (its answer and the
 * problems, asked to answer again); a second failure is a 502 naming the problems. Usage covers every
 * call made. Provider failures are their GatewayErrors, as on /v1/llm/chat.
 */
export async function runTemplate<I, S extends z.ZodType>(
  template: Template<I, S>,
  input: I,
  options: TemplateOptions = {},
): Promise<Generated<z.infer<S>>> {
  const entry = configuredProvider(options.provider ?? DEFAULT_PROVIDER);
  const modelId = entry.defaultModel;
  const model = languageModel(entry, modelId);
  const signal = withDeadline(options.signal, options.timeoutMs ?? TIMEOUT_MS);
  const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  let answeredBy = modelId;
  const add = (u: Usage) => {
    usage.prompt_tokens += u.prompt_tokens;
    usage.completion_tokens += u.completion_tokens;
    usage.total_tokens += u.total_tokens;
  };

  const ask = async (messages: ModelMessage[]): Promise<Attempt<z.infer<S>>> => {
    try {
      const result = await generateText({
        model,
        system: template.system,
        messages,
        output: Output.object({ schema: template.schema }),
        maxOutputTokens: template.maxTokens,
        maxRetries: 0,
        abortSignal: signal,
      });
      add(usageOf(result.usage));
      answeredBy = result.response?.modelId || answeredBy;
      const value = result.output as z.infer<S>;
      const problems = template.rules?.(value, input) ?? [];
      return problems.length ? { ok: false, problems, text: result.text } : { ok: true, value, text: result.text };
    } catch (err) {
      if (!NoObjectGeneratedError.isInstance(err)) throw providerError(entry.name, err);
      add(usageOf(err.usage));
      return { ok: false, problems: [schemaProblem(err)], text: err.text ?? "" };
    }
  };

  const first: ModelMessage[] = [{ role: "user", content: template.prompt(input) }];
  let attempt = await ask(first);
  let repaired = false;
  if (!attempt.ok) {
    repaired = true;
    attempt = await ask([
      ...first,
      { role: "assistant", content: attempt.text.slice(0, 40_000) || "(no answer)" },
      { role: "user", content: repairPrompt(attempt.problems) },
    ]);
  }
  if (!attempt.ok) {
    throw new GatewayError(
      502,
      `${entry.name} did not produce a valid ${template.name} after a repair attempt: ${attempt.problems.slice(0, 5).join("; ")}`,
    );
  }
  return { result: attempt.value, provider: entry.name, model: answeredBy, usage, repaired };
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
