import { z } from "@hono/zod-openapi";
import { defineArea } from "../../gateway/http/area.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse } from "../../gateway/http/schemas.ts";
import { route } from "../../gateway/pipeline/route.ts";
import { embedOn } from "../../llm/call/embed.ts";
import { compatEmbeddingModel, embedThroughRouter } from "../../llm/embedding-route.ts";
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
  const r = await embedThroughRouter(c, which, (target, stop) => embedOn(target, inputs, stop));
  c.report({ provider: r.provider, model: r.model, promptTokens: r.tokens });
  return {
    object: "list",
    // base64 is what the official SDKs ask for: little-endian float32, as OpenAI sends it.
    data: r.embeddings.map((embedding, index) => ({
      object: "embedding",
      index,
      embedding:
        body.encoding_format === "base64"
          ? Buffer.from(new Float32Array(embedding).buffer).toString("base64")
          : embedding,
    })),
    // An alias answers by its name, as on the chat surfaces; x-gateway-model says which model embedded.
    model: "alias" in which ? which.alias : `${r.provider}/${r.model}`,
    usage: { prompt_tokens: r.tokens, total_tokens: r.tokens },
  };
});

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
