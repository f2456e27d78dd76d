import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { ErrorSchema, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { clearAnswers, ownScopes } from "../../llm/cache/answer-cache.ts";

const Cleared = z
  .object({
    deleted: z.number().int().openapi({ description: "Answers removed" }),
    vectors: z.number().int().openapi({ description: "Semantic cache vectors removed (questions matched by meaning)" }),
  })
  .openapi("CacheCleared");

const clear = gatewayRoute("key", {
  method: "delete",
  path: "/v1/cache",
  summary: "Delete the caller's cached model answers",
  description:
    "Removes every answer the response cache holds for the calling key's lineage (the key and the keys it was rotated from), and, when the operator's policy for the key shares its answers with its user's or team's keys, that pool's too; and the semantic cache's vectors of those questions. Other owners' entries are untouched.",
  tags: ["Cache"],
  responses: {
    200: jsonResponse(Cleared, "The caller's entries are gone"),
    ...keyedErrors,
    503: jsonResponse(ErrorSchema, "The cache's store (Redis) did not answer"),
  },
});

const handleClear: Handler<typeof clear> = async (c) => {
  let deleted = 0;
  let vectors = 0;
  for (const scope of ownScopes(c.key!)) {
    const cleared = await clearAnswers(c.runtime, scope);
    deleted += cleared.answers;
    vectors += cleared.vectors;
  }
  return { deleted, vectors };
};

export const cacheRoutes: RouteDef[] = [route(clear, handleClear)];
