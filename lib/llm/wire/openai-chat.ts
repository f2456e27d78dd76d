// OpenAI's Chat Completions: the wire every provider but Anthropic speaks, and the pivot every surface
// is translated through (the Messages and Responses surfaces become a chat request; an Anthropic
// provider answers one). Here: the body an OpenAI-wire provider is sent, the reading of its answer and
// chunks, the writing of chunks to a /v1/chat/completions client, and OpenAI's error body.
import { z } from "@hono/zod-openapi";
import { gatewayErrorMessage, type ErrorShape } from "../../gateway/pipeline/error-shape.ts";
import type { ProviderEntry } from "../../upstream/llm-catalogue.ts";
import type { Usage } from "../chat-types.ts";
import { serviceTierUse } from "../compat/passthrough.ts";
import { sseFrame, streamFailure, type EventTranslator } from "./sse.ts";
import type { ChatChunk, ChatRequest, ChatUsage } from "./types.ts";

type Body = Record<string, unknown>;

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
