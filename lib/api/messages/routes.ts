import { z } from "@hono/zod-openapi";
import { JsonText } from "../../gateway/http/json-text.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest } from "../../gateway/http/schemas.ts";
import type { Call } from "../../gateway/pipeline/call.ts";
import { route, type RouteDef } from "../../gateway/pipeline/route.ts";
import { llmTimeoutMs } from "../../llm/chat.ts";
import { postChat, readAnswer } from "../../llm/provider-call.ts";
import { chatStreamAnswer, completionUsage } from "../../llm/usage-report.ts";
import { anthropicUsage } from "../../llm/compat/anthropic-upstream.ts";
import { anthropicErrorResponses } from "../../llm/compat/error-responses.ts";
import { relayEvents, sseFrame, streamFailure, type EventTranslator } from "../../llm/compat/event-relay.ts";
import { inlineImages } from "../../llm/compat/images.ts";
import { anthropicFeatureUse, messagesFeatures, refuseUnlisted } from "../../llm/compat/passthrough.ts";
import { completeOn, streamOn, usageFrom, type ChatSink, type ChatTarget } from "../../llm/compat/provider-chat.ts";
import { chatTarget, requestAnswerId } from "../../llm/compat/target.ts";
import type { AnthropicEvent, AnthropicMessage, MessagesRequest } from "../../llm/compat/wire.ts";
import { ChatToMessageEvents, chatToMessage, messageJson, messagesToChat } from "./translate.ts";

const Block = z.looseObject({ type: z.string().min(1).max(64) });

// The fields the gateway reads are checked here; the rest of Anthropic's body passes to Anthropic as
// sent, and is translated (or refused by name) for the other providers.
const MessagesBody = z.looseObject({
  model: z.string().min(1).max(200),
  max_tokens: z.number().int().min(1),
  messages: z
    .array(
      z.looseObject({
        role: z.enum(["user", "assistant"]),
        content: z.union([z.string(), z.array(Block).max(1000)]),
      }),
    )
    .min(1)
    .max(500),
  system: z.union([z.string(), z.array(Block).max(100)]).optional(),
  stream: z.boolean().optional(),
  tools: z
    .array(
      z.looseObject({
        name: z.string().min(1).max(128),
        type: z
          .string()
          .regex(/^[A-Za-z0-9_.-]{1,64}$/)
          .optional()
          .openapi({
            description:
              "A server tool (web_search_20250305, code_execution_…) reaches Anthropic only when the operator lists it (web_search…) in LLM_PASSTHROUGH_FEATURES",
          }),
      }),
    )
    .max(128)
    .optional(),
  temperature: z.number().min(0).max(1).optional(),
});

const messages = gatewayRoute("key", {
  method: "post",
  path: "/v1/messages",
  summary: "Anthropic-compatible Messages (model as provider/model), on every provider",
  tags: ["Anthropic-compatible"],
  request: jsonRequest(MessagesBody),
  responses: {
    200: {
      description: "A message, or Anthropic's stream events (message_start … message_stop)",
      content: {
        "application/json": { schema: z.record(z.string(), z.unknown()) },
        "text/event-stream": { schema: z.string() },
      },
    },
    ...anthropicErrorResponses(502, 503, 504),
  },
});

/** Anthropic's events passed through as sent (the model renamed provider/model), read for usage on the way. */
function anthropicEvents(name: string): EventTranslator {
  let usage: AnthropicMessage["usage"] | undefined;
  let model: string | undefined;
  return {
    event(data, event) {
      if (data.type === "error") throw streamFailure(data.error);
      if (data.type === "message_start") {
        const message = data.message as AnthropicMessage;
        model = message.model;
        usage = message.usage;
        data = { ...data, message: { ...message, model: name } };
      } else if (data.type === "message_delta" && data.usage) {
        // message_delta's counts are cumulative and may restate the input side.
        usage = { ...usage!, ...(data.usage as Partial<AnthropicMessage["usage"]>) };
      }
      return [sseFrame(data, event ?? String(data.type))];
    },
    end: () => [],
    error: (message) => [sseFrame({ type: "error", error: { type: "api_error", message } }, "error")],
    usage: () => usageFrom(usage && anthropicUsage(usage)),
    model: () => model,
    features: () => anthropicFeatureUse(usage),
  };
}

/** Chat chunks as Anthropic's named stream events. */
function messageEventSink(events: ChatToMessageEvents): ChatSink {
  const frames = (list: AnthropicEvent[]) => list.map((e) => sseFrame(messageJson(e), e.type));
  return {
    push: (chunk) => frames(events.push(chunk)),
    end: () => frames(events.end()),
    error: (message) => [sseFrame(events.error(message), "error")],
  };
}

/**
 * Anthropic itself: the body as sent (with Anthropic's model id and any `anthropic-beta` flags), the
 * answer as given. Server tools and betas that bill beyond tokens pass only when the operator lists
 * them (400 otherwise, before anything is sent); what the answer says they used is metered.
 */
async function onAnthropic(c: Call, target: ChatTarget, body: MessagesRequest) {
  const { entry, modelId, name } = target;
  const beta = c.header("anthropic-beta");
  refuseUnlisted(messagesFeatures(body.tools, beta), c.runtime.config.passthroughFeatures);
  const headers: Record<string, string> = beta ? { "anthropic-beta": beta } : {};
  const sent = { ...body, model: modelId };
  // Bounds the provider's call (its whole stream), and a stream's relay stops it when it gives up.
  const stop = c.stop(llmTimeoutMs());
  if (body.stream) {
    const res = await postChat(entry, sent, stop, headers).catch((err: unknown) => {
      stop.release();
      throw err;
    });
    return chatStreamAnswer(relayEvents(entry, res, stop, modelId, anthropicEvents(name)));
  }
  const msg = await readAnswer<AnthropicMessage>(entry, await postChat(entry, sent, stop, headers)).finally(() =>
    stop.release(),
  );
  c.report(
    completionUsage({
      provider: entry.name,
      model: msg.model ?? modelId,
      usage: usageFrom(anthropicUsage(msg.usage)),
      features: anthropicFeatureUse(msg.usage),
    }),
  );
  return { ...msg, model: name };
}

const messagesRoute = route(messages, async (c, input) => {
  const body = input.body as unknown as MessagesRequest;
  const target = chatTarget(body.model, requestAnswerId("msg_", c.requestId));
  if (target.entry.wire === "anthropic") return onAnthropic(c, target, body);
  const chat = messagesToChat(body, target.modelId, target.entry.name);
  chat.messages = await inlineImages(c.runtime, chat.messages, c);
  const stop = c.stop(llmTimeoutMs());
  if (!chat.stream) {
    const r = await completeOn(target, chat, stop);
    c.report(completionUsage({ provider: target.entry.name, model: r.model, usage: r.usage, features: r.features }));
    const message = chatToMessage(r.completion, { id: target.id, model: target.name });
    return new JsonText(messageJson(message));
  }
  const sink = messageEventSink(new ChatToMessageEvents({ id: target.id, model: target.name }));
  return chatStreamAnswer(await streamOn(target, chat, sink, stop));
});

export const messagesRoutes: RouteDef[] = [messagesRoute];
