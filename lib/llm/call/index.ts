// THE call of a chat on any provider, whole or streamed: every compatible surface (/v1/chat/completions,
// /v1/messages, /v1/responses) runs its chats through completeOn and streamOn, so what wraps them (the
// model router's retries and fallbacks) applies to every surface alike. The wires' translations live in
// lib/llm/wire; this module picks them by the provider's wire and does the I/O.
import type { TraceScope } from "../../observability/trace-scope.ts";
import type { ProviderEntry } from "../../upstream/llm-catalogue.ts";
import type { CallStop } from "../../upstream/call-stop.ts";
import type { FeatureUse } from "../../usage/meter.ts";
import type { ChatStream, Usage } from "../chat-types.ts";
import { anthropicFeatureUse, serviceTierUse } from "../compat/passthrough.ts";
import {
  AnthropicToChatChunks,
  anthropicChunks,
  anthropicEventsAsSent,
  anthropicToChat,
  anthropicUsage,
  chatToAnthropic,
} from "../wire/anthropic/index.ts";
import { openAIChunks, upstreamBody, usageFrom, type ChatSink } from "../wire/openai-chat.ts";
import type { EventTranslator } from "../wire/sse.ts";
import type { AnthropicMessage, ChatCompletion, ChatRequest, MessagesRequest } from "../wire/types.ts";
import { traceAnswer, WatchedEvents, type SentContent } from "./answer-trace.ts";
import { firstBytes } from "./first-bytes.ts";
import { postChat, readAnswer, type ProviderBody } from "./provider-http.ts";
import { relayEvents } from "./relay.ts";

/**
 * A chat call's names: the provider's model id, the `provider/model` the client sees, and ids for
 * translated answers; and, when tracing is on, the span of the router's attempt, which the answer's
 * finish reasons (and, with content capture, its messages) go on (answer-trace.ts).
 */
export type ChatTarget = {
  entry: ProviderEntry;
  modelId: string;
  name: string;
  id: string;
  created: number;
  trace?: TraceScope;
};

/**
 * What a surface asks of a provider: the chat pivot, which goes as sent to a provider speaking OpenAI's
 * wire and translated to one speaking Anthropic's; or a Messages client's own body for Anthropic itself,
 * passed on as sent (with its `anthropic-beta` headers), so nothing the pivot cannot carry is lost.
 */
export type ChatCall = { chat: ChatRequest } | { anthropic: MessagesRequest; headers?: Record<string, string> };

/**
 * A streamed call: the chat pivot with the sink writing its chunks in the client's wire, or Anthropic's
 * events as sent, each also handed to `watch` when given (the response cache reading the answer).
 */
export type StreamCall =
  | { chat: ChatRequest; sink: ChatSink }
  | { anthropic: MessagesRequest; headers?: Record<string, string>; watch?: (event: Record<string, unknown>) => void };

/**
 * A whole answer and what to meter: tokens, the model the provider says it used, and what it used
 * beyond tokens (an Anthropic server tool, a service tier above standard).
 */
export type Completed<A> = { answer: A; provider: string; usage: Usage; model: string; features?: FeatureUse };

/**
 * One chat on any provider, not streamed. The chat pivot is answered in Chat Completions' shape (the
 * model named provider/model); Anthropic's own body is answered as Anthropic answered it (the model
 * renamed the same way). `deadline` bounds the call and is released when it ends.
 */
export async function completeOn(
  target: ChatTarget,
  call: { chat: ChatRequest },
  deadline: CallStop,
): Promise<Completed<ChatCompletion>>;
export async function completeOn(
  target: ChatTarget,
  call: { anthropic: MessagesRequest; headers?: Record<string, string> },
  deadline: CallStop,
): Promise<Completed<AnthropicMessage>>;
export async function completeOn(
  target: ChatTarget,
  call: ChatCall,
  deadline: CallStop,
): Promise<Completed<ChatCompletion | AnthropicMessage>> {
  const { entry, modelId, name } = target;
  try {
    if ("anthropic" in call) {
      const sent = asSent(target, call.anthropic);
      const msg = await readAnswer<AnthropicMessage>(entry, await postChat(entry, sent, deadline, call.headers));
      if (target.trace) traceAnswer(target.trace, sent, msg);
      return {
        answer: { ...msg, model: name },
        provider: entry.name,
        usage: usageFrom(anthropicUsage(msg.usage)),
        model: msg.model ?? modelId,
        features: anthropicFeatureUse(msg.usage),
      };
    }
    const body = call.chat;
    if (entry.wire === "anthropic") {
      const { request, jsonTool } = chatToAnthropic({ ...body, stream: false }, modelId);
      const msg = await readAnswer<AnthropicMessage>(entry, await postChat(entry, request, deadline));
      if (target.trace) traceAnswer(target.trace, request, msg);
      const answer = anthropicToChat(msg, { id: target.id, model: name, created: target.created, jsonTool });
      return { answer, provider: entry.name, usage: usageFrom(anthropicUsage(msg.usage)), model: msg.model ?? modelId };
    }
    const json = await readAnswer<ChatCompletion>(
      entry,
      await postChat(entry, upstreamBody(entry, body, modelId), deadline),
    );
    if (target.trace) traceAnswer(target.trace, body, json);
    return {
      answer: { ...json, model: name },
      provider: entry.name,
      usage: usageFrom(json.usage),
      model: typeof json.model === "string" ? json.model : modelId,
      features: serviceTierUse(json.service_tier),
    };
  } finally {
    deadline.release();
  }
}

/**
 * One chat on any provider, streamed: the pivot's chunks handed to the sink, which writes them in the
 * client's wire, or Anthropic's events relayed as sent. A refusal is thrown before anything is sent, and
 * so is a stream that ends before its first bytes (the router may then still try another deployment);
 * `stop` bounds the provider's whole stream, and the relay stops it through the same object.
 */
export async function streamOn(target: ChatTarget, call: StreamCall, stop: CallStop): Promise<ChatStream> {
  const { entry, modelId, name } = target;
  try {
    if ("anthropic" in call) {
      const res = await firstBytes(
        entry.name,
        await postChat(entry, asSent(target, call.anthropic), stop, call.headers),
        stop,
      );
      return relay(target, res, stop, watching(anthropicEventsAsSent(name), call.watch), call.anthropic);
    }
    const { chat: body, sink } = call;
    if (entry.wire === "anthropic") {
      const { request, jsonTool } = chatToAnthropic({ ...body, stream: true }, modelId);
      const res = await firstBytes(entry.name, await postChat(entry, request, stop), stop);
      const chunks = new AnthropicToChatChunks({ id: target.id, model: name, created: target.created, jsonTool });
      return relay(target, res, stop, anthropicChunks(sink, chunks), request);
    }
    const res = await firstBytes(
      entry.name,
      await postChat(entry, upstreamBody(entry, { ...body, stream: true }, modelId), stop),
      stop,
    );
    return relay(target, res, stop, openAIChunks(sink), body);
  } catch (err) {
    stop.release();
    throw err;
  }
}

/**
 * The provider's events relayed to the client through `t`; on a traced attempt, also read for the
 * answer, which goes on the attempt's span once the stream ends.
 */
function relay(target: ChatTarget, res: ProviderBody, stop: CallStop, t: EventTranslator, sent: SentContent) {
  const span = target.trace;
  if (!span) return relayEvents(target.entry, res, stop, target.modelId, t);
  const watched = new WatchedEvents(t, span.captureContent);
  const stream = relayEvents(target.entry, res, stop, target.modelId, watched);
  // Registered on `finished` before anything else is (the route's metering, the request's end), so it
  // runs while the span is still open.
  void stream.finished.then(() => watched.record(span, sent));
  return stream;
}

/** `t`, also handing each event it relays, after `t` took it, to `watch`. */
function watching(t: EventTranslator, watch: ((event: Record<string, unknown>) => void) | undefined): EventTranslator {
  if (!watch) return t;
  return {
    ...t,
    event(data, name) {
      const frames = t.event(data, name);
      watch(data);
      return frames;
    },
  };
}

/** A Messages body for Anthropic itself, as the client sent it (streamed or not) but for Anthropic's model id. */
function asSent(target: ChatTarget, body: MessagesRequest): MessagesRequest {
  if (target.entry.wire !== "anthropic") throw new Error(`${target.entry.name} does not speak Anthropic's wire`);
  return { ...body, model: target.modelId };
}
