import { GatewayError } from "../errors.ts";
import type { CallStop } from "../upstream/call-stop.ts";
import type { ProviderEntry } from "../upstream/llm-catalogue.ts";
import type { CompletionResponse } from "./chat-types.ts";
import { chatCompletionsBody, type RelayRequest } from "./openai-stream.ts";
import { postChat, readAnswer } from "./call/provider-http.ts";
import { contentText } from "./sse-relay.ts";

/** What the gateway reads of a Chat Completions answer; anything else in it is the provider's business. */
type Answer = {
  model?: unknown;
  choices?: Array<{ message?: { content?: unknown; refusal?: unknown } | null } | null>;
  usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null;
};

/** A token count as the provider reported it, or 0 when it did not (or sent something that is not one). */
const count = (n: unknown) => (typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : 0);

/**
 * One non-streamed chat on a provider speaking OpenAI's Chat Completions: the body the AI SDK's
 * provider would send, one request on the keep-alive pool, and the answer read for its text, model and
 * usage, as the streamed relay reads the same provider's chunks. The AI SDK's pipeline for the same call
 * (a provider and model object, zod schemas and web streams per request) cost ~3x the gateway's CPU.
 * A refusal is the gateway error its status means; an answer without a message is a 502.
 */
export async function relayCompletion(
  entry: ProviderEntry,
  r: RelayRequest,
  stop: CallStop,
): Promise<CompletionResponse> {
  const answer = await readAnswer<Answer>(entry, await postChat(entry, chatCompletionsBody(entry, r, false), stop));
  const message = Array.isArray(answer.choices) ? answer.choices[0]?.message : undefined;
  if (!message || typeof message !== "object") throw new GatewayError(502, `${entry.name} answered without a message`);
  const prompt = count(answer.usage?.prompt_tokens);
  const completion = count(answer.usage?.completion_tokens);
  return {
    content: contentText(message.content) + (typeof message.refusal === "string" ? message.refusal : ""),
    model: typeof answer.model === "string" && answer.model ? answer.model : r.modelId,
    provider: entry.name,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}
