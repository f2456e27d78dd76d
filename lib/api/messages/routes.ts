import { z } from "@hono/zod-openapi";
import { JsonText } from "../../gateway/http/json-text.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest } from "../../gateway/http/schemas.ts";
import type { Call } from "../../gateway/pipeline/call.ts";
import { route, type RouteDef } from "../../gateway/pipeline/route.ts";
import {
  CACHE_MISS,
  cachedFrom,
  hitUse,
  pivotCacheFor,
  setHitHeaders,
  type RequestCache,
} from "../../llm/cache/answer-cache.ts";
import { keptEvents, keptMessage } from "../../llm/cache/anthropic-stream.ts";
import { hitAnswer, replayStream } from "../../llm/cache/replay.ts";
import { completeOn, streamOn, type ChatTarget } from "../../llm/call/index.ts";
import { anthropicErrorResponses } from "../../llm/compat/error-responses.ts";
import { inlineImages } from "../../llm/compat/images.ts";
import { messagesFeatures, refuseUnlisted } from "../../llm/compat/passthrough.ts";
import { chatRoute } from "../../llm/compat/routed.ts";
import type { AliasCachePolicy } from "../../llm/routing/config.ts";
import { requestAnswerId } from "../../llm/compat/target.ts";
import { chatStreamAnswer, completionUsage } from "../../llm/usage-report.ts";
import { chatToMessage, messageEventSink, messageJson, messagesToChat } from "../../llm/wire/anthropic/index.ts";
import type { ChatRequest, MessagesRequest } from "../../llm/wire/types.ts";

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

/**
 * Anthropic itself: the body as sent (with Anthropic's model id and any `anthropic-beta` flags), the
 * answer as given. Server tools and betas that bill beyond tokens pass only when the operator lists
 * them (400 otherwise, before anything is sent); what the answer says they used is metered.
 */
function asSent(c: Call, body: MessagesRequest) {
  const beta = c.header("anthropic-beta");
  refuseUnlisted(messagesFeatures(body.tools, beta), c.runtime.config.passthroughFeatures);
  const headers: Record<string, string> = beta ? { "anthropic-beta": beta } : {};
  return { anthropic: body, headers };
}

/**
 * Any other provider: the body onto the chat pivot (made once, whichever deployment needs it first), the
 * answer back as Anthropic's message or events.
 */
function pivotOnce(c: Call, body: MessagesRequest): (target: ChatTarget) => Promise<ChatRequest> {
  let pivot: Promise<ChatRequest> | undefined;
  return (target) =>
    (pivot ??= (async () => {
      const chat = messagesToChat(body, target.modelId, target.entry.name);
      chat.messages = await inlineImages(c.runtime, chat.messages, c);
      return chat;
    })());
}

/**
 * The response cache's part in a Messages request: keyed on its chat pivot (the one a deployment other
 * than Anthropic gets, images as sent), so an answer given on /v1/chat/completions or /v1/responses
 * answers it too, and the other way round. The pivot's model and provider name nothing here (the key
 * takes the client's model string itself). A request the pivot cannot carry (server tools, Anthropic's
 * own fields) is answered without the cache, and so is one with `anthropic-beta` flags, which the pivot
 * has no place for though they can change the answer.
 */
function messagesCache(c: Call, body: MessagesRequest, policy?: AliasCachePolicy): RequestCache | undefined {
  if (c.header("anthropic-beta")) return undefined;
  return pivotCacheFor(c, body.model, () => messagesToChat(body, body.model, "the response cache"), policy);
}

/** The labels a translated answer carries: the attempt's ids and the provider/model the client sees. */
const labelsOf = (target: ChatTarget) => ({ id: target.id, model: target.name, created: target.created });

/**
 * Each deployment the router tries gets the call its wire takes: an Anthropic deployment the client's
 * own body, any other the pivot, so an alias may fall over from one wire to the other.
 */
const messagesRoute = route(messages, async (c, input) => {
  const body = input.body as unknown as MessagesRequest;
  const route = await chatRoute(c, body.model, requestAnswerId("msg_", c.requestId), { body });
  const named = { id: route.plan.id, model: route.plan.model };
  const pivot = pivotOnce(c, body);
  // Before anything is sent: what Anthropic would get as sent, its billed features checked.
  const sent = route.plan.candidates.some((d) => d.entry.wire === "anthropic") ? asSent(c, body) : undefined;
  // Before any image is fetched (the pivot's are inlined at the first attempt): a hit fetches none.
  const cache = messagesCache(c, body, route.plan.cache);
  const hit = await cache?.read();
  if (hit) {
    setHitHeaders(c, hit);
    if (body.stream) return replayStream(hit, named.id, messageEventSink(named));
    c.report({ cache: hitUse(hit) });
    return new JsonText(messageJson(chatToMessage(hitAnswer(hit, named.id), named))) as never;
  }
  if (cache) c.setHeader("x-gateway-cache", "miss");
  if (body.stream) {
    // Kept from the attempt that answered: the pivot's chunks are recorded as they pass, and Anthropic's
    // own events, relayed as sent, are read into the same form on the way.
    const kept = cache?.recorder();
    const stream = await route.stream(async (target, stop) => {
      if (target.entry.wire === "anthropic") {
        const watch = kept && keptEvents(kept.recorder(target.name), labelsOf(target));
        return streamOn(target, { ...sent!, ...(watch && { watch }) }, stop);
      }
      const sink = messageEventSink(named);
      return streamOn(target, { chat: await pivot(target), sink: kept ? kept.sink(sink, target.name) : sink }, stop);
    });
    kept?.keepWhenFinished(stream);
    return chatStreamAnswer(stream, cache && CACHE_MISS);
  }
  const answer = await route.whole(async (target, stop) => {
    if (target.entry.wire === "anthropic") {
      const r = await completeOn(target, sent!, stop);
      const kept = cache && keptMessage(r.answer, labelsOf(target));
      return { usage: completionUsage(r), json: r.answer as unknown, kept: kept && cachedFrom(kept, r) };
    }
    const r = await completeOn(target, { chat: await pivot(target) }, stop);
    const json = new JsonText(messageJson(chatToMessage(r.answer, named)));
    return { usage: completionUsage(r), json, kept: cache && cachedFrom(r.answer, r) };
  });
  c.report({ ...answer.usage, ...(cache && { cache: CACHE_MISS }) });
  if (answer.kept) await cache?.write(answer.kept);
  return answer.json as never;
});

export const messagesRoutes: RouteDef[] = [messagesRoute];
