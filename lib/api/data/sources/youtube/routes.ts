import { z } from "@hono/zod-openapi";
import type { AreaApp } from "../../../../gateway/http/area.ts";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { Any, sourceContext, tags, upstreamErrors } from "../../schemas.ts";
import { channel, youtube } from "./index.ts";

const channelRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/youtube/channel/{channel_id}",
  summary: "A YouTube channel with its statistics",
  tags,
  request: { params: z.object({ channel_id: z.string() }) },
  responses: { 200: jsonResponse(Any, "The channel"), ...keyedErrors, ...upstreamErrors },
});

export function registerYoutubeRoutes(app: AreaApp): void {
  app.openapi(channelRoute, async (c) =>
    c.json(await channel(sourceContext(c, youtube), c.req.valid("param").channel_id), 200),
  );
}
