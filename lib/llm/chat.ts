import { generateText, streamText, type ModelMessage } from "ai";
import { GatewayError } from "../errors.ts";
import { DEFAULT_PROVIDER, type ProviderEntry } from "../upstream/llm-catalogue.ts";
import { providerError } from "./errors.ts";
import { configuredProvider, languageModel } from "./models.ts";
import type { ChatMessage, ChatPart, ChatStream, CompletionResponse, StreamOutcome, Usage } from "./chat-types.ts";
import { completeOn } from "./call/index.ts";
import { MAX_TRACED_TEXT, traceTextAnswer } from "./call/answer-trace.ts";
import type { TraceScope } from "../observability/trace-scope.ts";
import { PulledParts, relayChat, relaysStream, type PartSource } from "./openai-stream.ts";
import { answerText, chatCompletionsBody, type RelayRequest } from "./wire/openai-chat.ts";
import { sseFrame } from "./wire/sse.ts";
import { CallStop } from "../upstream/call-stop.ts";
import type { EventSource } from "../gateway/http/event-stream.ts";

export type ChatRequest = {
  messages: ChatMessage[];
  provider?: string;
  model?: string;
  max_tokens?: number;
  temperature?: number;
  effort?: "low" | "medium" | "high";
  extended_thinking?: boolean;
  thinking?: { type: "adaptive" } | { type: "enabled"; budget_tokens: number };
  inference_geo?: "us";
  /** Providers to try, in order, when the chosen one fails (5xx, rate limit, timeout). */
  fallback?: string[];
};

export type { CompletionResponse } from "./chat-types.ts";

const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * How long a chat call (a whole stream included) may take: the operator's LLM_TIMEOUT_MS, validated at
 * start-up by lib/config.ts and read per call, as UPSTREAM_MAX_BYTES is. A provider that hangs is a 504.
 */
export function llmTimeoutMs(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.LLM_TIMEOUT_MS);
  return Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_TIMEOUT_MS;
}

/** A request checked and split the way every provider takes it: system prompt apart, the rest in order. */
type Resolved = {
  entry: ProviderEntry;
  modelId: string;
  system: string;
  messages: ChatMessage[];
  anthropic: Record<string, unknown>;
};

/**
 * Where the model router sends one attempt: a deployment's provider entry and model id, and the
 * attempt's span when tracing is on (the answer's finish reason goes on it, lib/llm/call/answer-trace.ts).
 */
export type ChatDeployment = { entry: ProviderEntry; modelId: string; trace?: TraceScope };

/**
 * Resolves provider and model (the router's deployment, else the request's), and turns Anthropic-only
 * controls into provider options (400 elsewhere).
 */
function resolveChat(req: ChatRequest, deployment?: ChatDeployment): Resolved {
  const entry = deployment?.entry ?? configuredProvider(req.provider ?? DEFAULT_PROVIDER);
  const modelId = deployment?.modelId ?? req.model ?? entry.defaultModel;
  const thinkingFields = (["effort", "extended_thinking", "thinking", "inference_geo"] as const).filter(
    (f) => req[f] !== undefined,
  );
  if (thinkingFields.length && !entry.thinking) {
    throw new GatewayError(
      400,
      `${thinkingFields.join(", ")} ${thinkingFields.length > 1 ? "are" : "is"} only supported by anthropic, not ${entry.name}`,
    );
  }
  const anthropic: Record<string, unknown> = {};
  if (req.effort) anthropic.effort = req.effort;
  if (req.inference_geo) anthropic.inferenceGeo = req.inference_geo;
  if (req.thinking?.type === "adaptive") anthropic.thinking = { type: "adaptive" };
  else if (req.thinking?.type === "enabled")
    anthropic.thinking = { type: "enabled", budgetTokens: req.thinking.budget_tokens };
  else if (req.extended_thinking) anthropic.thinking = { type: "enabled", budgetTokens: 4096 };

  const system = req.messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n\n");
  const messages = req.messages.filter((m) => m.role !== "system");
  if (messages.length === 0) throw new GatewayError(400, "messages needs at least one user or assistant message");
  return { entry, modelId, system, messages, anthropic };
}

export type Prepared = { entry: ProviderEntry; modelId: string; options: Parameters<typeof generateText>[0] };

function sdkOptions(
  { entry, modelId, system, messages, anthropic }: Resolved,
  req: ChatRequest,
  stop: CallStop,
): Prepared {
  return {
    entry,
    modelId,
    options: {
      model: languageModel(entry, modelId),
      ...(system ? { system } : {}),
      messages: messages as ModelMessage[],
      maxOutputTokens: req.max_tokens,
      temperature: req.temperature,
      maxRetries: 0,
      abortSignal: stop.signal,
      ...(Object.keys(anthropic).length ? { providerOptions: { anthropic: anthropic as never } } : {}),
    },
  };
}

/** The request as AI SDK call options, for the calls the SDK makes (completions, vision, non-relayed streams). */
export function prepareChat(req: ChatRequest, stop: CallStop): Prepared {
  return sdkOptions(resolveChat(req), req, stop);
}

export function usageOf(u: { inputTokens?: number; outputTokens?: number } | undefined): Usage {
  const prompt = u?.inputTokens ?? 0;
  const completion = u?.outputTokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/**
 * One answer, not streamed. Providers speaking OpenAI's Chat Completions are called through the chat
 * call every compatible surface uses (`completeOn`), the others through the AI SDK; a provider's
 * failure is its GatewayError.
 */
export async function completeChat(
  req: ChatRequest,
  signal?: AbortSignal | CallStop,
  deployment?: ChatDeployment,
): Promise<CompletionResponse> {
  const stop = chatStop(signal);
  try {
    const resolved = resolveChat(req, deployment);
    const trace = deployment?.trace;
    if (!relaysStream(resolved.entry)) return await generateCompletion(sdkOptions(resolved, req, stop), trace);
    try {
      return await completeText(resolved, req, stop, trace);
    } catch (err) {
      throw providerError(resolved.entry.name, err);
    }
  } finally {
    stop.release();
  }
}

/**
 * A text chat on a provider speaking OpenAI's wire: the body the AI SDK's provider would send, one
 * request on the keep-alive pool, and the answer read for its text, model and usage. The AI SDK's
 * pipeline for the same call (a provider and model object, zod schemas and web streams per request)
 * cost ~3x the gateway's CPU. An answer without a message is a 502.
 */
async function completeText(
  resolved: Resolved,
  req: ChatRequest,
  stop: CallStop,
  trace: TraceScope | undefined,
): Promise<CompletionResponse> {
  const { entry, modelId } = resolved;
  const target = { entry, modelId, name: `${entry.name}/${modelId}`, id: "", created: 0, trace };
  const chat = chatCompletionsBody(entry, relayRequest(resolved, req), false);
  const { answer, model } = await completeOn(target, { chat }, stop);
  const text = answerText(answer);
  if (text === undefined) throw new GatewayError(502, `${entry.name} answered without a message`);
  return { ...text, model: model || modelId, provider: entry.name };
}

/**
 * What bounds a chat's provider call: the caller's CallStop (BodyCall.stop, no AbortSignal made), or
 * a new one with LLM_TIMEOUT_MS that also follows the caller's AbortSignal.
 */
export function chatStop(given: AbortSignal | CallStop | undefined): CallStop {
  return given instanceof CallStop ? given : new CallStop(llmTimeoutMs()).follow(given);
}

/** What the relays send a provider for a resolved chat. */
const relayRequest = (resolved: Resolved, req: ChatRequest): RelayRequest => ({
  modelId: resolved.modelId,
  system: resolved.system,
  messages: resolved.messages,
  maxTokens: req.max_tokens,
  temperature: req.temperature,
});

/**
 * One answer, not streamed, to a prepared request; a provider's failure becomes its GatewayError. On a
 * traced attempt (`trace`) why it finished goes on the attempt's span.
 */
export async function generateCompletion(
  { entry, modelId, options }: Prepared,
  trace?: TraceScope,
): Promise<CompletionResponse> {
  try {
    const result = await generateText(options);
    if (trace)
      traceTextAnswer(
        trace,
        { messages: options.messages ?? [], system: options.system },
        result.text,
        // The provider's own reason, as the gateway's other calls record it; the SDK's own when it has none.
        result.rawFinishReason ?? result.finishReason,
      );
    return {
      content: result.text,
      model: result.response?.modelId || modelId,
      provider: entry.name,
      usage: usageOf(result.usage),
    };
  } catch (err) {
    throw providerError(entry.name, err);
  }
}

/** The AI SDK's stream as parts, for providers whose wire the gateway does not read itself. */
async function* sdkParts(p: Prepared): AsyncGenerator<ChatPart> {
  const result = streamText({ ...p.options, onError: () => {} });
  for await (const part of result.fullStream) {
    if (part.type === "text-delta") {
      if (part.text) yield { type: "text", text: part.text };
    } else if (part.type === "finish-step") {
      if (part.response?.modelId) yield { type: "model", id: part.response.modelId };
    } else if (part.type === "finish") {
      return yield {
        type: "finish",
        usage: usageOf(part.totalUsage),
        reason: part.rawFinishReason ?? part.finishReason,
      };
    } else if (part.type === "error") throw part.error;
    // The SDK ends an aborted stream quietly: the abort (client gone, or the timeout) is the failure.
    else if (part.type === "abort") throw (p.options.abortSignal as AbortSignal).reason;
  }
  throw new Error("the stream ended without finishing");
}

/** How a stream's events are written: the gateway's own shape, or OpenAI's chunks (for /v1/chat/completions). */
export type StreamFormat = {
  delta(text: string): unknown;
  done(outcome: { usage: Usage; model: string; provider: string }): unknown[];
  error(message: string): unknown;
  /** A final raw data line, e.g. OpenAI's [DONE]. */
  trailer?: string;
};

export const GATEWAY_STREAM: StreamFormat = {
  delta: (content) => ({ content }),
  done: ({ usage, model, provider }) => [{ done: true, model, provider, usage }],
  error: (error) => ({ error, done: true }),
};

const encoder = new TextEncoder();
const event = (data: unknown) => encoder.encode(sseFrame(data));
// ~4 characters a token: the estimate used only when a client leaves before the provider reports usage.
const estimateTokens = (characters: number) => Math.ceil(characters / 4);

/**
 * Streams a chat as server-sent events: `data: {"content": "..."}` per delta and a last
 * `data: {"done": true, ...}`. Providers speaking OpenAI's Chat Completions are relayed from their
 * own events (`relayChat`); the others go through the AI SDK. The first part is awaited before
 * answering, so a provider that refuses yields a real error status rather than a 200 stream.
 * `finished` resolves once the stream ends or the client disconnects (which aborts the upstream
 * request), with the usage to meter.
 */
export async function streamChat(
  req: ChatRequest,
  signal?: AbortSignal | CallStop,
  format: StreamFormat = GATEWAY_STREAM,
  deployment?: ChatDeployment,
): Promise<ChatStream> {
  // One stop for the provider call: the client leaving, the deadline and cancel (below) end it.
  const stop = chatStop(signal);
  // Set when the client has gone (cancel): the failure that stopping the provider causes is then not reported.
  let cancelled = false;
  let resolved: Resolved;
  try {
    resolved = resolveChat(req, deployment);
  } catch (err) {
    stop.release();
    throw err;
  }
  const { entry } = resolved;
  const promptChars = req.messages.reduce((n, m) => n + m.content.length, 0);
  let model = resolved.modelId;

  let parts: PartSource;
  // Released when the stream ends (below), so no pending timer outlives the call.
  try {
    parts = relaysStream(entry)
      ? await relayChat(entry, relayRequest(resolved, req), stop)
      : new PulledParts(sdkParts(sdkOptions(resolved, req, stop)));
    await parts.ready();
  } catch (err) {
    stop.release();
    throw providerError(entry.name, err);
  }

  let settle!: (o: StreamOutcome) => void;
  const finished = new Promise<StreamOutcome>((resolve) => (settle = resolve));
  void finished.finally(() => stop.release());
  // Only its length is needed (for the estimate), so an open stream does not hold the whole reply...
  let textChars = 0;
  // ...unless the attempt is traced with content capture: then the reply goes on its span (capped there).
  const trace = deployment?.trace;
  let text = trace?.captureContent ? "" : undefined;
  let finishReason: string | undefined;
  let bytes = 0;
  let ended = false;
  const estimated = (): Usage => {
    const prompt = estimateTokens(promptChars);
    const completion = estimateTokens(textChars);
    return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  };
  const end = (outcome: Omit<StreamOutcome, "bytes">) => {
    if (ended) return;
    ended = true;
    if (trace) traceTextAnswer(trace, { messages: req.messages }, text ?? "", finishReason);
    settle({ ...outcome, bytes });
  };

  const source: EventSource = {
    start(controller) {
      const send = (data: unknown) => {
        const chunk = event(data);
        bytes += chunk.length;
        controller.enqueue(chunk);
      };
      return new Promise<void>((resolve) =>
        parts.attach({
          part(p) {
            if (p.type === "text") {
              textChars += p.text.length;
              if (text !== undefined && text.length < MAX_TRACED_TEXT) text += p.text;
              send(format.delta(p.text));
            } else if (p.type === "model") model = p.id;
            else {
              finishReason = p.reason;
              for (const e of format.done({ usage: p.usage, model, provider: entry.name })) send(e);
              end({ usage: p.usage, model, provider: entry.name, complete: true });
            }
          },
          end() {
            if (format.trailer) send(format.trailer);
            controller.close();
            resolve();
          },
          fail(err) {
            resolve();
            // The client left (cancel below metered it).
            if (cancelled) return;
            send(format.error(providerError(entry.name, err).message));
            end({ usage: estimated(), model, provider: entry.name, complete: false });
            controller.close();
          },
        }),
      );
    },
    cancel() {
      // The client went away: stop the provider too, and meter what was generated so far.
      cancelled = true;
      stop.leave();
      end({ usage: estimated(), model, provider: entry.name, complete: false });
    },
  };
  return { source, finished };
}
