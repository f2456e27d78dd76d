import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../../../gateway/pipeline/route.ts";
import { Any, sourceContext, tags } from "../../schemas.ts";
import { upstreamErrors } from "../../../../data-sources/error-responses.ts";
import { channel, youtube } from "../../../../data-sources/youtube/index.ts";

const channelRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/youtube/channel/{channel_id}",
  summary: "A YouTube channel with its statistics",
  tags,
  request: { params: z.object({ channel_id: z.string() }) },
  responses: { 200: jsonResponse(Any, "The channel"), ...keyedErrors, ...upstreamErrors },
});

export const youtubeRoutes: RouteDef[] = [
  route(channelRoute, (c, { params }) => channel(sourceContext(c, youtube), params.channel_id)),
];
