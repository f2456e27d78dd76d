import { z, type RouteHandler } from "@hono/zod-openapi";
import type { AreaApp } from "../../gateway/http/area.ts";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, keyedErrors } from "../../gateway/http/schemas.ts";
import { CHAT_PROVIDER_NAMES, DEFAULT_PROVIDER, PROVIDERS } from "../../upstream/llm-catalogue.ts";
import { completeChat, streamChat, type StreamFormat } from "../llm/chat.ts";
import { meteredChatStream, reportCompletion } from "../llm/usage-report.ts";

/**
 * Models on the OpenAI-compatible surface are named `provider/model` (a bare model id goes to the
 * provider whose defaults list it, else to the default provider).
 */
function splitModel(model: string): { provider: string; model: string } {
  const slash = model.indexOf("/");
  if (slash > 0 && CHAT_PROVIDER_NAMES.includes(model.slice(0, slash)))
    return { provider: model.slice(0, slash), model: model.slice(slash + 1) };
  const owner = PROVIDERS.find((p) => p.defaultModel === model || Object.values(p.tiers).includes(model));
  return { provider: owner?.name ?? DEFAULT_PROVIDER, model };
}

const OpenAIMessage = z.object({
  role: z.enum(["system", "developer", "user", "assistant"]),
  content: z.union([z.string(), z.array(z.object({ type: z.literal("text"), text: z.string() }))]),
});

const ChatCompletionBody = z.object({
  model: z.string().min(1),
  messages: z.array(OpenAIMessage).min(1).max(500),
  stream: z.boolean().default(false),
  stream_options: z.object({ include_usage: z.boolean().optional() }).optional(),
  max_tokens: z.number().int().min(1).optional(),
  max_completion_tokens: z.number().int().min(1).optional(),
  temperature: z.number().min(0).max(2).optional(),
});

const text = (content: z.infer<typeof OpenAIMessage>["content"]) =>
  typeof content === "string" ? content : content.map((p) => p.text).join("");

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
    ...keyedErrors,
  },
});

const handleChatCompletions: RouteHandler<typeof chatCompletions, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  const { provider, model } = splitModel(body.model);
  const messages = body.messages.map((m) => ({
    role: m.role === "developer" ? ("system" as const) : m.role,
    content: text(m.content),
  }));
  const req = {
    messages,
    provider,
    model,
    max_tokens: body.max_completion_tokens ?? body.max_tokens,
    temperature: body.temperature,
  };
  const id = `chatcmpl-${c.var.requestId.replace(/[^\w]/g, "")}`;
  const created = Math.floor(Date.now() / 1000);
  const name = `${provider}/${model}`;
  if (!body.stream) {
    const r = await completeChat(req, c.req.raw.signal);
    reportCompletion(c, r);
    return c.json(
      {
        id,
        object: "chat.completion",
        created,
        model: name,
        choices: [
          { index: 0, message: { role: "assistant", content: r.content }, finish_reason: "stop", logprobs: null },
        ],
        usage: r.usage,
      },
      200,
    );
  }
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model: name,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  const format: StreamFormat = {
    delta: (content) => chunk({ content }, null),
    done: ({ usage }) => [
      chunk({}, "stop"),
      ...(body.stream_options?.include_usage
        ? [{ id, object: "chat.completion.chunk", created, model: name, choices: [], usage }]
        : []),
    ],
    error: (message) => ({ error: { message, type: "upstream_error" } }),
    trailer: "[DONE]",
  };
  return meteredChatStream(c, await streamChat(req, c.req.raw.signal, format)) as never;
};

export function registerChatCompletions(app: AreaApp): void {
  app.openapi(chatCompletions, handleChatCompletions);
}
