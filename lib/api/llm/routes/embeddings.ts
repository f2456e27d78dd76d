import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../../gateway/pipeline/route.ts";
import type { Call } from "../../../gateway/pipeline/call.ts";
import { embedOn } from "../../../llm/call/embed.ts";
import { embedThroughRouter, llmEmbeddingModel } from "../../../llm/embedding-route.ts";
import { cosine, EMBEDDING_PROVIDERS, type Embedded, type EmbeddingProvider } from "../../../llm/embeddings.ts";
import { providerErrors } from "../../../llm/route-schemas.ts";

const EmbedProvider = z.enum(EMBEDDING_PROVIDERS).default("openai");
const EmbeddingSchema = z
  .object({ embedding: z.array(z.number()), dimensions: z.number().int(), model: z.string() })
  .openapi("Embedding");
const EmbeddingsSchema = z
  .object({
    embeddings: z.array(z.array(z.number())),
    count: z.number().int(),
    dimensions: z.number().int(),
    model: z.string(),
  })
  .openapi("Embeddings");
const Text = z.string().min(1).max(100_000);

/**
 * Each group of texts embedded by the one deployment that answers them all: vectors of two models do
 * not compare, and an alias's deployments may differ in model. A group that fails stops the others.
 */
async function embedGroups(
  c: Call,
  body: { provider: EmbeddingProvider; model?: string | undefined },
  groups: string[][],
): Promise<Embedded[]> {
  const which = llmEmbeddingModel(body.model, body.provider, c.runtime.config.routing.aliases);
  return embedThroughRouter(c, which, async (target, stop) => {
    try {
      return await Promise.all(groups.map((texts) => embedOn(target, texts, stop)));
    } catch (err) {
      stop.abort();
      throw err;
    }
  });
}

const embed = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/embed",
  summary: "Embed a text (or, Form B, an array of texts)",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({
      text: z.union([Text, z.array(Text).min(1).max(2048)]),
      provider: EmbedProvider,
      model: z.string().max(200).optional(),
    }),
  ),
  responses: {
    200: jsonResponse(z.union([EmbeddingSchema, EmbeddingsSchema]), "One embedding, or one per text"),
    ...keyedErrors,
    ...providerErrors,
  },
});

const handleEmbed: Handler<typeof embed> = async (c, { body }) => {
  const texts = Array.isArray(body.text) ? body.text : [body.text];
  const result = (await embedGroups(c, body, [texts]))[0]!;
  c.report({ provider: result.provider, model: result.model, promptTokens: result.tokens });
  const dimensions = result.embeddings[0]?.length ?? 0;
  if (Array.isArray(body.text))
    return { embeddings: result.embeddings, count: result.embeddings.length, dimensions, model: result.model };
  return { embedding: result.embeddings[0]!, dimensions, model: result.model };
};

const embedBatch = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/embed-batch",
  summary: "Embed many texts",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({ texts: z.array(Text).min(1).max(2048), provider: EmbedProvider, model: z.string().max(200).optional() }),
  ),
  responses: {
    200: jsonResponse(EmbeddingsSchema, "One embedding per text, in order"),
    ...keyedErrors,
    ...providerErrors,
  },
});

const handleEmbedBatch: Handler<typeof embedBatch> = async (c, { body }) => {
  const result = (await embedGroups(c, body, [body.texts]))[0]!;
  c.report({ provider: result.provider, model: result.model, promptTokens: result.tokens });
  return {
    embeddings: result.embeddings,
    count: result.embeddings.length,
    dimensions: result.embeddings[0]?.length ?? 0,
    model: result.model,
  };
};

const similarity = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/similarity",
  summary: "Semantic similarity of two texts (cosine of their embeddings, floored at 0)",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({ text1: Text, text2: Text, provider: EmbedProvider, model: z.string().max(200).optional() }),
  ),
  responses: {
    200: jsonResponse(
      z.object({
        similarity: z.number().min(0).max(1),
        text1_tokens: z.number().int(),
        text2_tokens: z.number().int(),
        model: z.string(),
      }),
      "Similarity in 0..1",
    ),
    ...keyedErrors,
    ...providerErrors,
  },
});

const handleSimilarity: Handler<typeof similarity> = async (c, { body }) => {
  // Embedded one by one so each text's token count is known.
  const [a, b] = await embedGroups(c, body, [[body.text1], [body.text2]]);
  c.report({ provider: a!.provider, model: a!.model, promptTokens: a!.tokens + b!.tokens });
  const score = Math.max(0, Math.min(1, cosine(a!.embeddings[0]!, b!.embeddings[0]!)));
  return {
    similarity: Math.round(score * 10_000) / 10_000,
    text1_tokens: a!.tokens,
    text2_tokens: b!.tokens,
    model: a!.model,
  };
};

/** Embeddings of one text or many, and the similarity of two. */
export const embeddingRoutes: RouteDef[] = [
  route(embed, handleEmbed),
  route(embedBatch, handleEmbedBatch),
  route(similarity, handleSimilarity),
];
