import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { defineArea } from "../../gateway/http/area.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse } from "../../gateway/http/schemas.ts";
import { route } from "../../gateway/pipeline/route.ts";
import { EMBEDDING_PROVIDERS, embedTexts, type EmbeddingProvider } from "../../llm/embeddings.ts";
import { openAIErrorResponses } from "../../llm/compat/error-responses.ts";
import { toOpenAIError } from "../../llm/wire/openai-chat.ts";

const embeddings = gatewayRoute("key", {
  method: "post",
  path: "/v1/embeddings",
  summary: "OpenAI-compatible embeddings (model as openai/… or ollama/…)",
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
  const slash = body.model.indexOf("/");
  const provider = (slash > 0 ? body.model.slice(0, slash) : "openai") as EmbeddingProvider;
  if (!EMBEDDING_PROVIDERS.includes(provider))
    throw new GatewayError(400, `embeddings come from ${EMBEDDING_PROVIDERS.join(" or ")}, not ${provider}`);
  const model = slash > 0 ? body.model.slice(slash + 1) : body.model;
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const r = await embedTexts(inputs, provider, model, c.signal);
  c.report({ provider, model: r.model, promptTokens: r.tokens });
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
    model: `${provider}/${r.model}`,
    usage: { prompt_tokens: r.tokens, total_tokens: r.tokens },
  };
});

/**
 * OpenAI-compatible embeddings (the OpenAI-compatible surface: see lib/api/chat), by the LLM core's
 * embedder; errors in OpenAI's shape.
 */
export default defineArea({
  name: "embeddings",
  scope: "llm",
  paths: ["/v1/embeddings"],
  routes: [embeddingsRoute],
  respond: { errors: toOpenAIError },
});
