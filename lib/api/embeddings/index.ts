import { z, type RouteHandler } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { defineArea, type AreaApp } from "../../gateway/http/area.ts";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse } from "../../gateway/http/schemas.ts";
import { EMBEDDING_PROVIDERS, embedTexts, type EmbeddingProvider } from "../llm/embeddings.ts";
import { openAIErrorResponses } from "../chat/compat-error-responses.ts";
import { openAIErrors } from "../chat/openai-errors.ts";

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

const handleEmbeddings: RouteHandler<typeof embeddings, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  const slash = body.model.indexOf("/");
  const provider = (slash > 0 ? body.model.slice(0, slash) : "openai") as EmbeddingProvider;
  if (!EMBEDDING_PROVIDERS.includes(provider))
    throw new GatewayError(400, `embeddings come from ${EMBEDDING_PROVIDERS.join(" or ")}, not ${provider}`);
  const model = slash > 0 ? body.model.slice(slash + 1) : body.model;
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const r = await embedTexts(inputs, provider, model, c.req.raw.signal);
  c.set("usage", { provider, model: r.model, promptTokens: r.tokens });
  return c.json(
    {
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
    },
    200,
  );
};

function registerEmbeddings(app: AreaApp): void {
  // The OpenAI-compatible surface answers errors in OpenAI's shape.
  app.use("/v1/embeddings", openAIErrors());
  app.openapi(embeddings, handleEmbeddings);
}

/** OpenAI-compatible embeddings (the OpenAI-compatible surface: see lib/api/chat), by the LLM area's embedder. */
export default defineArea({
  name: "embeddings",
  scope: "llm",
  paths: ["/v1/embeddings"],
  routes: [registerEmbeddings],
});
