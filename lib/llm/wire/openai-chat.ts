// OpenAI's Chat Completions: the wire every provider but Anthropic speaks, and the pivot every surface
// is translated through (the Messages and Responses surfaces become a chat request; an Anthropic
// provider answers one). Here: the body an OpenAI-wire provider is sent, the reading of its answer and
// chunks, the writing of chunks to a /v1/chat/completions client, and OpenAI's error body; and the
// body and chunk reading of the gateway's own text chats (/v1/llm/chat) on such a provider.
import { z } from "@hono/zod-openapi";
import { createParser } from "eventsource-parser";
import type OpenAI from "openai";
import { gatewayErrorMessage, type ErrorShape } from "../../gateway/pipeline/error-shape.ts";
import type { ProviderEntry } from "../../upstream/llm-catalogue.ts";
import type { ChatMessage, ChatPart, Usage } from "../chat-types.ts";
import { serviceTierUse } from "../compat/passthrough.ts";
import { sseFrame, streamFailure, type EventTranslator } from "./sse.ts";
import type { ChatChunk, ChatCompletion, ChatRequest, ChatUsage } from "./types.ts";

type Body = Record<string, unknown>;
type ToolCallDelta = OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall;

/** The client's surface for chat chunks: the frames each chunk becomes (OpenAI chunks, Anthropic events, Responses events). */
export interface ChatSink {
  push(chunk: ChatChunk): string[];
  /** A provider's chunk as its raw JSON, when the sink can write it without parsing; undefined otherwise. */
  pushRaw?(data: string): string[] | undefined;
  end(): string[];
  error(message: string): string[];
}

/** A chat usage object as the gateway meters it; a provider that sent none used nothing it told of. */
export const usageFrom = (u: Partial<ChatUsage> | null | undefined): Usage => {
  const prompt = u?.prompt_tokens ?? 0;
  const completion = u?.completion_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: u?.total_tokens ?? prompt + completion };
};

/**
 * The reasoning text of a chat message or delta: `reasoning_content`, which Anthropic's translation and
 * several OpenAI-compatible providers add outside OpenAI's types. Undefined when there is none.
 */
export function reasoningText(message: object | null | undefined): string | undefined {
  const reasoning = (message as { reasoning_content?: unknown } | null | undefined)?.reasoning_content;
  return typeof reasoning === "string" && reasoning ? reasoning : undefined;
}

/**
 * Whether a streamed tool-call delta continues the call open at chat index `index` with id `id`: the
 * same index and no new id, as some providers number parallel calls all 0, telling them apart only by id.
 */
export const continuesCall = (delta: ToolCallDelta, index: number, id: string): boolean =>
  delta.index === index && (!delta.id || delta.id === id);

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

/** A chunk's top-level `model` field (the first one: chunks carry it before any nested object). */
export const MODEL_FIELD = /"model"\s*:\s*("(?:[^"\\]|\\.)*")/;
// Only chunks that may carry usage or a failure need reading; inside a JSON string a quote is escaped,
// so these cannot match text the model wrote.
const NEEDS_READING = /"usage"\s*:\s*\{|"error"/;

/** Whether a chunk's raw JSON must be parsed: it may carry usage or the provider's failure. */
export const needsReading = (data: string): boolean => NEEDS_READING.test(data);

/**
 * Reads an OpenAI-wire provider's chunks into the sink: the provider's error event throws. A chunk the
 * sink can write as it came (pushRaw) and that carries no usage or error is never parsed. The service
 * tier it served with is read from the chunks parsed anyway (the usage chunk, which the gateway always asks for).
 */
export function openAIChunks(sink: ChatSink): EventTranslator {
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

/** Chat chunks as OpenAI streams them, model named provider/model; the usage chunk only when the client asked. */
export function chatChunkSink(name: string, includeUsage: boolean): ChatSink {
  const model = `"model":${JSON.stringify(name)}`;
  return {
    // Most chunks only need the model renamed: done on the text, without parsing and writing it again.
    pushRaw: (data) => {
      const field = MODEL_FIELD.exec(data);
      return field
        ? [sseFrame(`${data.slice(0, field.index)}${model}${data.slice(field.index + field[0].length)}`)]
        : undefined;
    },
    push: (chunk) =>
      chunk.usage && !chunk.choices?.length && !includeUsage ? [] : [sseFrame({ ...chunk, model: name })],
    end: () => [sseFrame("[DONE]")],
    error: (message) => [sseFrame({ error: { message, type: "upstream_error" } })],
  };
}

/** OpenAI's error `type` for a status, as its SDKs and clients branch on it. */
const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  405: "invalid_request_error",
  413: "invalid_request_error",
  429: "rate_limit_error",
};

/**
 * An error of the gateway's in OpenAI's shape, `{error: {message, type, param, code}}`; null when the
 * body is not one of ours. `param` is the field a validation message names first ("invalid request:
 * messages.0.role: …"). The OpenAI-compatible areas answer every error in it, with the same status
 * and headers (rate-limit headers, Retry-After) as the rest of the gateway.
 */
export const toOpenAIError: ErrorShape = (status, body) => {
  const message = gatewayErrorMessage(body);
  if (message === undefined) return null;
  const e = body?.error;
  const code = typeof e === "object" && typeof e.code === "string" ? e.code : null;
  const param = /^(?:invalid request: )?([A-Za-z_][\w.]*): /.exec(message)?.[1] ?? null;
  const type = ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return { error: { message, type, param, code } };
};

/** `{error: {message, type, param, code}}`, as toOpenAIError shapes every error, for the API document. */
export const OpenAIErrorSchema = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string(),
      param: z.string().nullable(),
      code: z.string().nullable(),
    }),
  })
  .openapi("OpenAIError");

/** A chat of the gateway's own (/v1/llm/chat and the services built on it): its system prompt apart, plain text turns. */
export type RelayRequest = {
  modelId: string;
  system: string;
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
};

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
export function chatCompletionsBody(entry: ProviderEntry, r: RelayRequest, stream = true): ChatRequest {
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

/** A token count as the provider reported it, or 0 when it did not (or sent something that is not one). */
const count = (n: unknown) => (typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : 0);

/**
 * What the gateway's own chat reads of a Chat Completions answer: the text of its first message (text
 * parts and a refusal included) and its tokens; undefined when it has no message. Anything else in it
 * is the provider's business.
 */
export function answerText(answer: ChatCompletion): { content: string; usage: Usage } | undefined {
  const message = Array.isArray(answer.choices) ? answer.choices[0]?.message : undefined;
  if (!message || typeof message !== "object") return undefined;
  const prompt = count(answer.usage?.prompt_tokens);
  const completion = count(answer.usage?.completion_tokens);
  return {
    content: contentText(message.content) + (typeof message.refusal === "string" ? message.refusal : ""),
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/** A decoded part, or the provider's failure (which the reader turns into a thrown error). */
export type DecodedPart = ChatPart | { type: "error"; message: string };

// One event is one chunk of a few hundred bytes; a provider buffering megabytes into one is broken
// (or hostile), and the parser would otherwise hold all of it.
const MAX_EVENT_CHARS = 1 << 20;

type Chunk = {
  model?: unknown;
  error?: { message?: unknown } | string;
  usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null;
  choices?: Array<{ finish_reason?: string | null; delta?: { content?: unknown; refusal?: unknown } | null }>;
};

/** The text of a delta's `content`: a string, or (Mistral's thinking models) typed parts of which `text` ones count. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const part of content as Array<{ type?: unknown; text?: unknown }>)
    if (part?.type === "text" && typeof part.text === "string") text += part.text;
  return text;
}

/**
 * Reads OpenAI Chat Completions server-sent events (every OpenAI-compatible provider's stream) into
 * the parts the gateway relays, the way the AI SDK's providers read them: the first chunk's `model`,
 * non-empty `content` and `refusal` deltas as text (reasoning deltas are not relayed), the `usage`
 * chunk (`stream_options.include_usage`), an `error` chunk as a failure. `[DONE]` carries nothing:
 * the stream is finished when the body ends, and only if a `finish_reason` came, so a connection cut
 * mid-answer is a failure, not a short answer.
 */
export function createChunkDecoder(emit: (part: DecodedPart) => void): { feed(text: string): void; end(): void } {
  let modelSeen = false;
  let finishReason: string | undefined;
  let failed = false;
  let prompt = 0;
  let completion = 0;
  const fail = (message: string) => {
    failed = true;
    emit({ type: "error", message });
  };
  const onData = (data: string) => {
    if (failed || data === "[DONE]") return;
    let chunk: Chunk | null;
    try {
      chunk = JSON.parse(data) as Chunk | null;
    } catch {
      chunk = null;
    }
    if (typeof chunk !== "object" || chunk === null)
      return fail(`sent an event that is not a JSON object: ${data.slice(0, 100)}`);
    if (chunk.error)
      return fail(typeof chunk.error === "string" ? chunk.error : String(chunk.error.message ?? "error event"));
    if (!modelSeen && typeof chunk.model === "string") {
      modelSeen = true;
      emit({ type: "model", id: chunk.model });
    }
    if (chunk.usage) {
      prompt = chunk.usage.prompt_tokens ?? 0;
      completion = chunk.usage.completion_tokens ?? 0;
    }
    const choice = chunk.choices?.[0];
    if (!choice) return;
    if (choice.finish_reason != null) finishReason = choice.finish_reason;
    const text =
      contentText(choice.delta?.content) + (typeof choice.delta?.refusal === "string" ? choice.delta.refusal : "");
    if (text) emit({ type: "text", text });
  };
  const parser = createParser({
    onEvent: (e) => onData(e.data),
    onError: (e) => {
      if (e.type === "max-buffer-size-exceeded" && !failed) fail("sent an event larger than 1 MB");
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  return {
    feed(text) {
      if (!failed) parser.feed(text);
    },
    end() {
      if (failed) return;
      if (finishReason === undefined) return fail("ended the stream without a finish reason");
      emit({
        type: "finish",
        usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
        reason: finishReason,
      });
    },
  };
}
