import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../../../gateway/pipeline/route.ts";
import { sourceContext, tags } from "../../schemas.ts";
import { upstreamErrors } from "../../../../data-sources/error-responses.ts";
import { archive, snapshot } from "../../../../data-sources/archive/index.ts";

const snapshotRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/archive/snapshot",
  summary: "The archived page closest to a time (default: the most recent)",
  tags,
  request: {
    query: z.object({
      url: z.string().min(1).max(2000),
      timestamp: z.string().optional().openapi({ description: "YYYYMMDDHHMMSS" }),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({ content: z.string(), timestamp: z.string(), url: z.string() }).passthrough(),
      "The snapshot",
    ),
    ...keyedErrors,
    ...upstreamErrors,
  },
});

export const archiveRoutes: RouteDef[] = [
  route(snapshotRoute, (c, { query }) => snapshot(sourceContext(c, archive), query.url, query.timestamp)),
];
