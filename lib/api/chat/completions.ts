import { z, type RouteHandler } from "@hono/zod-openapi";
import type { AreaApp } from "../../gateway/http/area.ts";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, keyedErrors } from "../../gateway/http/schemas.ts";
import { CHAT_PROVIDER_NAMES, DEFAULT_PROVIDER, PROVIDERS } from "../../upstream/llm-catalogue.ts";
import { GatewayError } from "../../errors.ts";
import { completeChat, streamChat, type StreamFormat } from "../llm/chat.ts";
import { configuredProvider } from "../llm/models.ts";
import { relaysStream } from "../llm/openai-stream.ts";
import { inlineImages } from "./images.ts";
import { relayCompletion, relayCompletionStream } from "./passthrough.ts";
import { meteredChatStream, reportCompletion } from "../llm/usage-report.ts";
import { openAIErrors } from "./openai-errors.ts";

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
  })
  .loose();

type ChatCompletionBody = z.infer<typeof ChatCompletionBody>;

/** What the translated path (providers not speaking OpenAI's wire) carries over; anything else is refused. */
const TRANSLATED_FIELDS = new Set([
  "model",
  "messages",
  "stream",
  "stream_options",
  "max_tokens",
  "max_completion_tokens",
  "temperature",
  "user",
]);

/**
 * The options a provider reached by translation cannot honour yet, named, so the caller gets a 400
 * instead of an answer that silently ignored them (tools, images, tool messages…).
 */
export function untranslatable(body: ChatCompletionBody): string[] {
  const fields = Object.keys(body).filter(
    (k) => !TRANSLATED_FIELDS.has(k) && body[k] !== undefined && body[k] !== null,
  );
  for (const m of body.messages) {
    if (m.role === "tool") fields.push("messages[].role: tool");
    if (m.tool_calls) fields.push("messages[].tool_calls");
    if (Array.isArray(m.content) && m.content.some((p) => p.type !== "text"))
      fields.push(`messages[].content type ${m.content.find((p) => p.type !== "text")!.type}`);
  }
  return [...new Set(fields)];
}

const text = (content: z.infer<typeof OpenAIMessage>["content"]) =>
  typeof content === "string"
    ? content
    : (content ?? []).map((p) => (typeof p.text === "string" ? p.text : "")).join("");

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
  const name = `${provider}/${model}`;
  const entry = configuredProvider(provider);
  if (relaysStream(entry)) {
    body.messages = await inlineImages(c.var.runtime, body.messages, c.req.raw.signal);
    if (!body.stream) {
      const r = await relayCompletion(entry, body, model, name, c.req.raw.signal);
      reportCompletion(c, { provider, model: r.model, usage: r.usage });
      return c.json(r.json, 200);
    }
    const includeUsage = body.stream_options?.include_usage === true;
    return meteredChatStream(
      c,
      await relayCompletionStream(entry, body, model, name, includeUsage, c.req.raw.signal),
    ) as never;
  }
  const refused = untranslatable(body);
  if (refused.length)
    throw new GatewayError(
      400,
      `${refused.join(", ")} ${refused.length > 1 ? "are" : "is"} not supported for ${provider} on /v1/chat/completions yet; use a provider speaking OpenAI's wire (${PROVIDERS.filter(
        relaysStream,
      )
        .map((p) => p.name)
        .join(", ")}) or /v1/llm/chat`,
    );
  const messages = body.messages.map((m) => ({
    role: m.role === "developer" ? ("system" as const) : (m.role as "system" | "user" | "assistant"),
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
  // The OpenAI-compatible surface answers errors in OpenAI's shape.
  app.use("/v1/chat/*", openAIErrors());
  app.openapi(chatCompletions, handleChatCompletions);
}
