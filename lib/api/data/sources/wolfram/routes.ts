import { z } from "@hono/zod-openapi";
import type { AreaApp } from "../../../../gateway/http/area.ts";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { sourceContext, tags, upstreamErrors } from "../../schemas.ts";
import { wolfram, wolframQuery } from "./index.ts";

const wolframRoute = gatewayRoute("key", {
  method: "post",
  path: "/v1/data/wolfram/query",
  summary: "Ask Wolfram|Alpha",
  tags,
  request: jsonRequest(z.object({ query: z.string().min(1).max(2000) })),
  responses: {
    200: jsonResponse(
      z.object({ result: z.string().nullable(), pods: z.array(z.record(z.string(), z.unknown())) }).passthrough(),
      "The answer and every pod",
    ),
    ...keyedErrors,
    ...upstreamErrors,
  },
});

export function registerWolframRoutes(app: AreaApp): void {
  app.openapi(wolframRoute, async (c) =>
    c.json(await wolframQuery(sourceContext(c, wolfram), c.req.valid("json").query), 200),
  );
}
