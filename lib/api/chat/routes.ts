import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest } from "../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../gateway/pipeline/route.ts";
import { CACHE_MISS, cacheFor, cachedFrom, hitUse, setHitHeaders } from "../../llm/cache/answer-cache.ts";
import { hitAnswer, replayStream } from "../../llm/cache/replay.ts";
import { completeOn, streamOn } from "../../llm/call/index.ts";
import { openAIErrorResponses } from "../../llm/compat/error-responses.ts";
import { inlineImages } from "../../llm/compat/images.ts";
import { refuseUnlisted, serviceTierFeature, ServiceTierField } from "../../llm/compat/passthrough.ts";
import { chatRoute } from "../../llm/compat/routed.ts";
import { requestAnswerId } from "../../llm/compat/target.ts";
import { chatStreamAnswer, completionUsage } from "../../llm/usage-report.ts";
import { chatChunkSink } from "../../llm/wire/openai-chat.ts";
import type { ChatRequest } from "../../llm/wire/types.ts";

const OpenAIMessage = z
  .object({
    role: z.enum(["system", "developer", "user", "assistant", "tool"]),
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string() })), z.null()]).optional(),
  })
  .loose();

// Every Chat Completions field is accepted and, for providers speaking OpenAI's wire, passed on as sent
// (tools, tool_choice, response_format, stop, seed, n, logprobs, reasoning_effort, and fields to come).
const ChatCompletionBody = z
  .object({
    model: z.string().min(1).max(200),
    messages: z.array(OpenAIMessage).min(1).max(500),
    stream: z.boolean().default(false),
    stream_options: z.looseObject({ include_usage: z.boolean().optional() }).optional(),
    max_tokens: z.number().int().min(1).optional(),
    max_completion_tokens: z.number().int().min(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
    service_tier: ServiceTierField,
  })
  .loose();

const chatCompletions = gatewayRoute("key", {
  method: "post",
  path: "/v1/chat/completions",
  summary: "OpenAI-compatible Chat Completions (model as provider/model)",
  tags: ["OpenAI-compatible"],
  request: jsonRequest(ChatCompletionBody),
  responses: {
    200: {
      description: "chat.completion, or chat.completion.chunk events ending with [DONE]",
      content: {
        "application/json": { schema: z.record(z.string(), z.unknown()) },
        "text/event-stream": { schema: z.string() },
      },
    },
    ...openAIErrorResponses(502, 503, 504),
  },
});

const completions = route(chatCompletions, async (c, input) => {
  const body = input.body as unknown as ChatRequest;
  // Before anything is fetched or sent: a tier that costs extra passes only when the operator allows it.
  refuseUnlisted(serviceTierFeature(body.service_tier), c.runtime.config.passthroughFeatures);
  // An alias or provider/model: an unknown provider is a 400 here, before any image is fetched.
  const id = requestAnswerId("chatcmpl-", c.requestId);
  const route = await chatRoute(c, body.model, id, { body });
  const includeUsage = body.stream_options?.include_usage === true;
  // Keyed on the images' URLs as sent: a hit fetches none of them.
  const cache = cacheFor(c, body.model, body, route.plan.cache);
  const hit = await cache?.read();
  if (hit) {
    setHitHeaders(c, hit);
    if (body.stream) return replayStream(hit, id, chatChunkSink(hit.answer.model, includeUsage));
    c.report({ cache: hitUse(hit) });
    return hitAnswer(hit, id) as never;
  }
  if (cache) c.setHeader("x-gateway-cache", "miss");
  body.messages = await inlineImages(c.runtime, body.messages, c);
  // A provider that never answers is a 504 after LLM_TIMEOUT_MS, as on /v1/llm/chat: the route's deadline.
  if (body.stream) {
    const kept = cache?.recorder();
    const stream = await route.stream((target, stop) => {
      const sink = chatChunkSink(target.name, includeUsage);
      return streamOn(target, { chat: body, sink: kept ? kept.sink(sink, target.name) : sink }, stop);
    });
    if (kept) kept.keepWhenFinished(stream);
    return chatStreamAnswer(stream, cache && CACHE_MISS);
  }
  const r = await route.whole((target, stop) => completeOn(target, { chat: body }, stop));
  c.report({ ...completionUsage(r), ...(cache && { cache: CACHE_MISS }) });
  await cache?.write(cachedFrom(r.answer, r));
  return r.answer as never;
});

export const chatRoutes: RouteDef[] = [completions];
