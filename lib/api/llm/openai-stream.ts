import type { ProviderEntry } from "../../upstream/llm-catalogue.ts";
import { tooLarge, upstreamMaxBytes } from "../../upstream/capped-body.ts";
import type { ChatMessage, ChatPart } from "./chat-types.ts";
import { postChat } from "./provider-call.ts";
import { createChunkDecoder, type DecodedPart } from "./sse-relay.ts";

export type RelayRequest = {
  modelId: string;
  system: string;
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
};

/** Providers whose streams the gateway reads itself: those speaking OpenAI's Chat Completions. */
export function relaysStream(entry: ProviderEntry): boolean {
  return entry.wire === "openai-compatible" || entry.wire === "openai";
}

/** OpenAI's reasoning models (o-series; GPT-5 and later except gpt-5-chat…), by @ai-sdk/openai's rule. */
export function isOpenAIReasoningModel(modelId: string): boolean {
  if (/^o\d+(?:-|$)/.test(modelId)) return true;
  const gpt = /^gpt-(\d+)(?:\.(\d+))?(?:-(.+))?$/.exec(modelId);
  if (!gpt) return false;
  const chatVariant = gpt[2] === undefined && (gpt[3]?.startsWith("chat") ?? false);
  return Number(gpt[1]) >= 5 && !chatVariant;
}

/**
 * The Chat Completions body the AI SDK's provider sends for the same chat (streamed: with usage).
 * OpenAI's reasoning models take the system prompt as `developer`, `max_completion_tokens`, and no
 * temperature (nor do its search-preview models); other providers take the request as it is.
 */
export function chatCompletionsBody(entry: ProviderEntry, r: RelayRequest, stream = true): Record<string, unknown> {
  const reasoning = entry.wire === "openai" && isOpenAIReasoningModel(r.modelId);
  const noTemperature = reasoning || (entry.wire === "openai" && /^gpt-4o(?:-mini)?-search-preview/.test(r.modelId));
  const messages = r.messages.map(({ role, content }) => ({ role, content }));
  return {
    model: r.modelId,
    messages: r.system ? [{ role: reasoning ? "developer" : "system", content: r.system }, ...messages] : messages,
    ...(reasoning ? { max_completion_tokens: r.maxTokens } : { max_tokens: r.maxTokens }),
    ...(noTemperature ? {} : { temperature: r.temperature }),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

/**
 * Starts a streamed chat on a provider speaking OpenAI's Chat Completions and reads its events
 * itself. The AI SDK's pipeline for the same stream (a provider object and its zod schemas per
 * request, every chunk validated, several layers of web streams) was most of the gateway's CPU and
 * memory per stream. A refusal is thrown here as the gateway error it means, before any output.
 */
export async function relayChat(
  entry: ProviderEntry,
  r: RelayRequest,
  signal: AbortSignal,
): Promise<AsyncGenerator<ChatPart>> {
  return relayParts(await postChat(entry, chatCompletionsBody(entry, r), signal), entry.name);
}

/** Hands on what was decoded; a provider's failure is thrown. */
function* settle(decoded: DecodedPart[]): Generator<ChatPart> {
  for (const part of decoded.splice(0)) {
    if (part.type === "error") throw new Error(part.message);
    yield part;
  }
}

/**
 * The parts of an event-stream body, which may hold at most maxBytes (502 naming the service past it,
 * like every upstream body). Leaving early (a failure, or the caller returning) cancels the body,
 * which aborts the upstream request.
 */
export async function* relayParts(
  body: AsyncIterable<Uint8Array>,
  service = "upstream",
  maxBytes = upstreamMaxBytes(),
): AsyncGenerator<ChatPart> {
  const decoded: DecodedPart[] = [];
  const decoder = createChunkDecoder((part) => decoded.push(part));
  const text = new TextDecoder();
  let size = 0;
  for await (const bytes of body) {
    size += bytes.byteLength;
    if (size > maxBytes) throw tooLarge(service, maxBytes);
    decoder.feed(text.decode(bytes, { stream: true }));
    yield* settle(decoded);
  }
  decoder.feed(text.decode());
  decoder.end();
  yield* settle(decoded);
}
