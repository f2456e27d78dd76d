import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../../../gateway/pipeline/route.ts";
import { sourceContext, tags } from "../../schemas.ts";
import { upstreamErrors } from "../../../../data-sources/error-responses.ts";
import { wolfram, wolframQuery } from "../../../../data-sources/wolfram/index.ts";

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

export const wolframRoutes: RouteDef[] = [
  route(wolframRoute, (c, { body }) => wolframQuery(sourceContext(c, wolfram), body.query)),
];
