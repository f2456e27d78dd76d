import { z } from "@hono/zod-openapi";
import type { AreaApp } from "../../../../gateway/http/area.ts";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { sourceContext, tags, upstreamErrors } from "../../schemas.ts";
import { archive, snapshot } from "./index.ts";

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

export function registerArchiveRoutes(app: AreaApp): void {
  app.openapi(snapshotRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await snapshot(sourceContext(c, archive), q.url, q.timestamp), 200);
  });
}
