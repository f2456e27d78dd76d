import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { jsonRequest, jsonResponse } from "../../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { poolErrors, runOnPool } from "../../../gateway/runtime/worker-pool.ts";
import { keywords } from "../pool-tasks.ts";
import { keylessText, openErrors } from "./keyless.ts";

const KeywordsBody = z.object({
  text: keylessText("text"),
  top_k: z.number().int().min(1).max(100).default(10),
});

const keywordsRoute = gatewayRoute(
  "none",
  {
    method: "post",
    path: "/v1/utils/text/keywords",
    summary: "Extract keywords and key phrases (RAKE over lemmas, stop words removed)",
    tags: ["Utilities"],
    request: jsonRequest(KeywordsBody),
    responses: {
      200: jsonResponse(
        z.object({
          keywords: z.array(z.object({ keyword: z.string(), score: z.number(), count: z.number().int() })),
          count: z.number().int(),
          algorithm: z.string(),
        }),
        "Keywords, best first, scores scaled to 0..1",
      ),
      ...openErrors,
      ...poolErrors,
    },
  },
  { limitKeyless: true },
);

export const keywordRoutes: RouteDef[] = [
  route(keywordsRoute, async (c, { body }) => {
    const found = await runOnPool(c.runtime, keywords, { text: body.text, topK: body.top_k }, "text");
    return { keywords: found, count: found.length, algorithm: "rake" };
  }),
];
