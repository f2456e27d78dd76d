import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { completeChat, GATEWAY_STREAM, streamChat, type ChatRequest } from "../../../llm/chat.ts";
import { CACHE_MISS, cachedFrom, cacheFor, hitUse, setHitHeaders } from "../../../llm/cache/answer-cache.ts";
import {
  answerOfCompletion,
  completionOfAnswer,
  recordingTextFormat,
  replayTextStream,
  textChatQuestion,
} from "../../../llm/cache/text-chat.ts";
import { chatRoute } from "../../../llm/compat/routed.ts";
import { llmRouteModels } from "../../../llm/llm-route-models.ts";
import { modelRouter } from "../../../llm/routing/runtime-router.ts";
import { executeCode, groundedChat, GROUNDING_MODEL_DEFAULT } from "../../../llm/gemini-native.ts";
import { selectModel } from "../tiers.ts";
import { Budget, Completion, Message, providerErrors } from "../../../llm/route-schemas.ts";
import { chatStreamAnswer, completionUsage } from "../../../llm/usage-report.ts";

const SelectionSchema = z
  .object({ provider: z.string(), model: z.string(), tier: Budget, configured: z.boolean(), reason: z.string() })
  .openapi("ModelSelection");

const ChatBody = z.object({
  messages: z.array(Message).min(1).max(500),
  provider: z.string().optional().openapi({ description: "Default xai" }),
  model: z.string().max(200).optional(),
  max_tokens: z.number().int().min(1).max(200_000).optional(),
  temperature: z.number().min(0).max(2).optional(),
  stream: z.boolean().default(false),
  effort: z.enum(["low", "medium", "high"]).optional().openapi({ description: "anthropic only" }),
  extended_thinking: z.boolean().optional().openapi({ description: "anthropic only" }),
  thinking: z
    .union([
      z.object({ type: z.literal("adaptive") }),
      z.object({ type: z.literal("enabled"), budget_tokens: z.number().int().min(1024) }),
    ])
    .optional()
    .openapi({ description: "anthropic only" }),
  inference_geo: z.literal("us").optional().openapi({ description: "anthropic only; US routing at 1.1x pricing" }),
  fallback: z.array(z.string().min(1).max(200)).max(5).optional().openapi({
    description:
      "Tried in order when the model's own deployments fail (connection, timeout, 429, 5xx): a provider (its default model), provider/model or an alias",
  }),
  gateway_route: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "A routing strategy, or deployment=<name>; the x-gateway-route header wins" }),
});

const chat = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/chat",
  summary: "Chat with a language model (stream with stream: true or ?stream=true)",
  tags: ["LLM"],
  request: { query: z.object({ stream: z.enum(["true", "false"]).optional() }), ...jsonRequest(ChatBody) },
  responses: {
    200: {
      description: "The completion, or text/event-stream of {content} deltas ending with {done: true}",
      content: { "application/json": { schema: Completion }, "text/event-stream": { schema: z.string() } },
    },
    ...keyedErrors,
    ...providerErrors,
  },
});

/**
 * Through the model router, as every model call: the provider and model (or an alias named as the
 * model) and the `fallback` models after them. Each attempt runs on its deployment's provider entry.
 */
const handleChat: Handler<typeof chat> = async (c, { body, query: { stream: streamQuery } }) => {
  const { model, fallbacks } = llmRouteModels(await modelRouter(c.runtime), body);
  const route = await chatRoute(c, model, c.requestId, { fallbacks, body });
  const req: ChatRequest = body;
  const streamed = body.stream || streamQuery === "true";
  const cache = cacheFor(c, model, textChatQuestion(body), route.plan.cache);
  const hit = await cache?.read();
  if (hit) {
    setHitHeaders(c, hit);
    if (streamed) return replayTextStream(hit);
    c.report({ cache: hitUse(hit) });
    return completionOfAnswer(hit.answer, hit.provider, hit.model);
  }
  if (cache) c.setHeader("x-gateway-cache", "miss");
  if (!streamed) {
    const result = await route.whole((deployment, stop) => completeChat(req, stop, deployment));
    c.report({ ...completionUsage(result), ...(cache && { cache: CACHE_MISS }) });
    await cache?.write(cachedFrom(answerOfCompletion(result, c.requestId, route.plan.model), result));
    const from = route.fellOverFrom();
    return from.length ? { ...result, fallback_from: from } : result;
  }
  // A stream falls over only before its first token (streamChat waits for it): after that the client has
  // output. Each attempt's text is recorded afresh; the one that completed is kept.
  const kept = cache?.recorder();
  const head = { id: c.requestId, model: route.plan.model, created: Math.floor(Date.now() / 1000) };
  const stream = await route.stream((deployment, stop) =>
    streamChat(
      req,
      stop,
      kept ? recordingTextFormat(kept.recorder(route.plan.model), head) : GATEWAY_STREAM,
      deployment,
    ),
  );
  kept?.keepWhenFinished(stream);
  return chatStreamAnswer(stream, cache && CACHE_MISS);
};

const TieredBody = z.object({
  task: z.string().min(1).max(20_000),
  budget: Budget.optional(),
  budget_tier: Budget.optional().openapi({ description: "Form B name for budget" }),
  provider: z.string().optional().openapi({ description: "Form B" }),
});

const tieredSelect = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/tiered-select",
  summary: "Pick a provider and model for a task and budget (documented rule, no model call)",
  tags: ["LLM"],
  request: jsonRequest(TieredBody),
  responses: { 200: jsonResponse(SelectionSchema, "The choice and why"), ...keyedErrors },
});

const handleTieredSelect: Handler<typeof tieredSelect> = (_c, { body }) =>
  selectModel(body.task, body.budget_tier ?? body.budget ?? "balanced", body.provider);

const smartChat = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/smart-chat",
  summary: "Chat with the model tiered-select picks for the budget",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({
      messages: z.array(Message).min(1).max(500),
      budget: Budget.default("balanced"),
      max_tokens: z.number().int().min(1).max(200_000).optional(),
    }),
  ),
  responses: {
    200: jsonResponse(Completion.extend({ selection: SelectionSchema }), "The completion and the selection behind it"),
    ...keyedErrors,
    ...providerErrors,
  },
});

const handleSmartChat: Handler<typeof smartChat> = async (c, { body }) => {
  const lastUser =
    [...body.messages].reverse().find((m) => m.role === "user")?.content ?? body.messages.at(-1)!.content;
  const selection = selectModel(lastUser, body.budget);
  const route = await chatRoute(c, `${selection.provider}/${selection.model}`, c.requestId);
  const req: ChatRequest = { messages: body.messages, max_tokens: body.max_tokens };
  const result = await route.whole((deployment, stop) => completeChat(req, stop, deployment));
  c.report(completionUsage(result));
  return { ...result, selection };
};

const grounded = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/grounded-chat",
  summary: "Gemini answer grounded in Google Search, with its sources and queries",
  tags: ["LLM"],
  request: jsonRequest(
    z
      .object({
        messages: z.array(Message).min(1).max(500).optional(),
        prompt: z.string().min(1).max(50_000).optional(),
        model: z.string().max(200).default(GROUNDING_MODEL_DEFAULT),
        dynamic_threshold: z.number().min(0).max(1).default(0.3),
      })
      .refine((b) => b.messages ?? b.prompt, { message: "messages or prompt is required", path: ["messages"] }),
  ),
  responses: {
    200: jsonResponse(
      z.object({
        content: z.string(),
        grounding_sources: z.array(z.object({ title: z.string(), uri: z.string() })),
        search_queries: z.array(z.string()),
        model: z.string(),
      }),
      "The grounded answer",
    ),
    ...keyedErrors,
    ...providerErrors,
  },
});

const handleGrounded: Handler<typeof grounded> = async (c, { body }) => {
  const messages = body.messages ?? [{ role: "user" as const, content: body.prompt! }];
  const r = await groundedChat(messages, body.model, body.dynamic_threshold);
  c.report({ provider: "gemini", model: r.model, promptTokens: r.promptTokens, completionTokens: r.completionTokens });
  return {
    content: r.content,
    grounding_sources: r.grounding_sources,
    search_queries: r.search_queries,
    model: r.model,
  };
};

const codeExecute = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/code-execute",
  summary: "Let Gemini write and run code for a task",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({ prompt: z.string().min(1).max(50_000), model: z.string().max(200).default(GROUNDING_MODEL_DEFAULT) }),
  ),
  responses: {
    200: jsonResponse(
      z.object({
        code: z.string(),
        output: z.string(),
        chart: z.string().nullable(),
        content: z.string(),
        model: z.string(),
      }),
      "Code, output, and a PNG chart when one was drawn",
    ),
    ...keyedErrors,
    ...providerErrors,
  },
});

const handleCodeExecute: Handler<typeof codeExecute> = async (c, { body }) => {
  const r = await executeCode(body.prompt, body.model);
  c.report({ provider: "gemini", model: r.model, promptTokens: r.promptTokens, completionTokens: r.completionTokens });
  return { code: r.code, output: r.output, chart: r.chart, content: r.content, model: r.model };
};

/** Chat: plain (with fallback and streaming), picked by budget, and Gemini's grounded and code-running answers. */
export const chatRoutes: RouteDef[] = [
  route(chat, handleChat),
  route(tieredSelect, handleTieredSelect),
  route(smartChat, handleSmartChat),
  route(grounded, handleGrounded),
  route(codeExecute, handleCodeExecute),
];
