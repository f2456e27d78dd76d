import type { ProviderEntry } from "../../upstream/llm-catalogue.ts";
import type { Usage } from "../chat-types.ts";
import type { ChatStream } from "../chat.ts";
import type { CallStop } from "../../upstream/call-stop.ts";
import type { FeatureUse } from "../../usage/meter.ts";
import { postChat, readAnswer } from "../provider-call.ts";
import { AnthropicToChatChunks, anthropicToChat, anthropicUsage, chatToAnthropic } from "./anthropic-upstream.ts";
import { relayEvents, streamFailure, type EventTranslator } from "./event-relay.ts";
import { serviceTierUse } from "./passthrough.ts";
import type { AnthropicEvent, AnthropicMessage, ChatChunk, ChatCompletion, ChatRequest, ChatUsage } from "./wire.ts";

type Body = Record<string, unknown>;

/** A chat call's names: the provider's model id, the `provider/model` the client sees, and ids for translated answers. */
export type ChatTarget = { entry: ProviderEntry; modelId: string; name: string; id: string; created: number };

/** The client's surface for chat chunks: the frames each chunk becomes (OpenAI chunks, Anthropic events, Responses events). */
export interface ChatSink {
  push(chunk: ChatChunk): string[];
  /** A provider's chunk as its raw JSON, when the sink can write it without parsing; undefined otherwise. */
  pushRaw?(data: string): string[] | undefined;
  end(): string[];
  error(message: string): string[];
}

export const usageFrom = (u: Partial<ChatUsage> | null | undefined): Usage => {
  const prompt = u?.prompt_tokens ?? 0;
  const completion = u?.completion_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: u?.total_tokens ?? prompt + completion };
};

/**
 * The client's Chat Completions body as an OpenAI-wire provider takes it: every field the client sent
 * (tools, tool_choice, response_format, stop, seed, n, logprobs…, and any the gateway does not know),
 * with the provider's own model id. Providers other than OpenAI itself get `developer` messages as
 * `system` and `max_tokens` for `max_completion_tokens`, which not all of them read.
 */
export function upstreamBody(entry: ProviderEntry, body: ChatRequest, modelId: string): Body {
  const out: Body = { ...body, model: modelId };
  if (entry.wire !== "openai") {
    out.messages = body.messages.map((m) => (m.role === "developer" ? { ...m, role: "system" } : m));
    if (out.max_completion_tokens != null && out.max_tokens == null) {
      out.max_tokens = out.max_completion_tokens;
      delete out.max_completion_tokens;
    }
  }
  // The gateway meters every stream, so it always asks for the usage chunk (and the sink drops it unless the client asked).
  if (body.stream) out.stream_options = { ...body.stream_options, include_usage: true };
  return out;
}

/**
 * One chat completion on any provider, answered in Chat Completions' shape (model named
 * provider/model): passed through to a provider speaking OpenAI's wire, translated to and from
 * Anthropic's Messages. `features`: the service tier an OpenAI-wire provider says it served with, if
 * not the standard one (metered).
 */
export async function completeOn(
  target: ChatTarget,
  body: ChatRequest,
  deadline: CallStop,
): Promise<{ completion: ChatCompletion; usage: Usage; model: string; features?: FeatureUse }> {
  const { entry, modelId, name } = target;
  try {
    if (entry.wire === "anthropic") {
      const { request, jsonTool } = chatToAnthropic({ ...body, stream: false }, modelId);
      const msg = await readAnswer<AnthropicMessage>(entry, await postChat(entry, request, deadline));
      const completion = anthropicToChat(msg, { id: target.id, model: name, created: target.created, jsonTool });
      return { completion, usage: usageFrom(anthropicUsage(msg.usage)), model: msg.model ?? modelId };
    }
    const json = await readAnswer<ChatCompletion>(
      entry,
      await postChat(entry, upstreamBody(entry, body, modelId), deadline),
    );
    return {
      completion: { ...json, model: name },
      usage: usageFrom(json.usage),
      model: typeof json.model === "string" ? json.model : modelId,
      features: serviceTierUse(json.service_tier),
    };
  } finally {
    deadline.release();
  }
}

/** A chunk's top-level `model` field (the first one: chunks carry it before any nested object). */
export const MODEL_FIELD = /"model"\s*:\s*("(?:[^"\\]|\\.)*")/;
// Only chunks that may carry usage or a failure need reading; inside a JSON string a quote is escaped,
// so these cannot match text the model wrote.
const NEEDS_READING = /"usage"\s*:\s*\{|"error"/;

/** Whether a chunk's raw JSON must be parsed: it may carry usage or the provider's failure. */
export const needsReading = (data: string): boolean => NEEDS_READING.test(data);

/**
 * Reads an OpenAI-wire provider's chunks into the sink: the provider's error event throws. The service
 * tier it served with is read from the chunks parsed anyway (the usage chunk, which the gateway always asks for).
 */
function openAIChunks(sink: ChatSink): EventTranslator {
  let usage = usageFrom(undefined);
  let model: string | undefined;
  let tier: unknown;
  return {
    raw(data) {
      if (data === "[DONE]") return [];
      if (!sink.pushRaw || needsReading(data)) return undefined;
      if (model === undefined) {
        const field = MODEL_FIELD.exec(data);
        if (field) model = JSON.parse(field[1]!) as string;
      }
      return sink.pushRaw(data);
    },
    event(data) {
      if (data.error) throw streamFailure(data.error);
      if (model === undefined && typeof data.model === "string") model = data.model;
      if (data.usage) usage = usageFrom(data.usage as ChatUsage);
      if (data.service_tier !== undefined) tier = data.service_tier;
      return sink.push(data as unknown as ChatChunk);
    },
    end: () => sink.end(),
    error: (message) => sink.error(message),
    usage: () => usage,
    model: () => model,
    features: () => serviceTierUse(tier),
  };
}

/** Reads Anthropic's events as chat chunks into the sink: its `error` event throws. */
function anthropicChunks(sink: ChatSink, chunks: AnthropicToChatChunks): EventTranslator {
  let model: string | undefined;
  return {
    event(data) {
      if (data.type === "error") throw streamFailure(data.error);
      if (data.type === "message_start") model = (data.message as { model?: string }).model;
      return chunks.push(data as unknown as AnthropicEvent).flatMap((c) => sink.push(c));
    },
    end: () => sink.end(),
    error: (message) => sink.error(message),
    usage: () => usageFrom(chunks.usage()),
    model: () => model,
  };
}

/**
 * A streamed chat on any provider, as chat chunks handed to the sink, which writes them in the
 * client's surface. A refusal is thrown before anything is sent.
 */
export async function streamOn(
  target: ChatTarget,
  body: ChatRequest,
  sink: ChatSink,
  stop: CallStop,
): Promise<ChatStream> {
  const { entry, modelId, name } = target;
  // `stop` bounds the provider's whole stream, and the relay stops it through the same object.
  try {
    if (entry.wire === "anthropic") {
      const { request, jsonTool } = chatToAnthropic({ ...body, stream: true }, modelId);
      const res = await postChat(entry, request, stop);
      const chunks = new AnthropicToChatChunks({ id: target.id, model: name, created: target.created, jsonTool });
      return relayEvents(entry, res, stop, modelId, anthropicChunks(sink, chunks));
    }
    const res = await postChat(entry, upstreamBody(entry, { ...body, stream: true }, modelId), stop);
    return relayEvents(entry, res, stop, modelId, openAIChunks(sink));
  } catch (err) {
    stop.release();
    throw err;
  }
}
