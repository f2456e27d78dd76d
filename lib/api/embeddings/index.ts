import { z } from "@hono/zod-openapi";
import { defineArea } from "../../gateway/http/area.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse } from "../../gateway/http/schemas.ts";
import { route } from "../../gateway/pipeline/route.ts";
import { embedOn } from "../../llm/call/embed.ts";
import { compatEmbeddingModel, embeddingCall } from "../../llm/embedding-route.ts";
import { CACHE_MISS, embeddingCacheFor, hitUse, setHitHeaders } from "../../llm/cache/answer-cache.ts";
import { openAIErrorResponses } from "../../llm/compat/error-responses.ts";
import { toOpenAIError } from "../../llm/wire/openai-chat.ts";

const embeddings = gatewayRoute("key", {
  method: "post",
  path: "/v1/embeddings",
  summary: "OpenAI-compatible embeddings (model as an alias, openai/… or ollama/…)",
  tags: ["OpenAI-compatible"],
  request: jsonRequest(
    z.object({
      model: z.string().min(1),
      input: z.union([z.string(), z.array(z.string()).min(1).max(2048)]),
      encoding_format: z.enum(["float", "base64"]).default("float"),
    }),
  ),
  responses: {
    200: jsonResponse(z.record(z.string(), z.unknown()), "An OpenAI embedding list"),
    ...openAIErrorResponses(502, 503, 504),
  },
});

const embeddingsRoute = route(embeddings, async (c, { body }) => {
  const which = compatEmbeddingModel(body.model, c.runtime.config.routing.aliases);
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const call = await embeddingCall(c, which);
  // An alias answers by its name, as on the chat surfaces; x-gateway-model says which model embedded.
  const named = (provider: string, model: string) => ("alias" in which ? which.alias : `${provider}/${model}`);
  const cache = embeddingCacheFor(c, body.model, inputs, call.policy);
  const hit = await cache?.read();
  if (hit) {
    setHitHeaders(c, hit);
    c.report({ cache: hitUse(hit) });
    return embeddingList(hit.answer.embeddings, body.encoding_format, named(hit.provider, hit.model), hit.promptTokens);
  }
  if (cache) c.setHeader("x-gateway-cache", "miss");
  const r = await call.run((target, stop) => embedOn(target, inputs, stop));
  c.report({ provider: r.provider, model: r.model, promptTokens: r.tokens, ...(cache && { cache: CACHE_MISS }) });
  await cache?.write({
    answer: { embeddings: r.embeddings },
    provider: r.provider,
    model: r.model,
    promptTokens: r.tokens,
    completionTokens: 0,
  });
  return embeddingList(r.embeddings, body.encoding_format, named(r.provider, r.model), r.tokens);
});

/** OpenAI's embedding list. */
function embeddingList(vectors: number[][], encoding: "float" | "base64", model: string, tokens: number) {
  return {
    object: "list",
    // base64 is what the official SDKs ask for: little-endian float32, as OpenAI sends it.
    data: vectors.map((embedding, index) => ({
      object: "embedding",
      index,
      embedding: encoding === "base64" ? Buffer.from(new Float32Array(embedding).buffer).toString("base64") : embedding,
    })),
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

/**
 * OpenAI-compatible embeddings (the OpenAI-compatible surface: see lib/api/chat), through the model
 * router as the chat surfaces are; errors in OpenAI's shape.
 */
export default defineArea({
  name: "embeddings",
  scope: "llm",
  paths: ["/v1/embeddings"],
  routes: [embeddingsRoute],
  respond: { errors: toOpenAIError },
});
