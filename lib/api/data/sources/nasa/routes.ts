import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../../../gateway/pipeline/route.ts";
import { Any, sourceContext, tags } from "../../schemas.ts";
import { upstreamErrors } from "../../../../data-sources/error-responses.ts";
import { apod, marsPhotos, nasa, nearEarthObjects, ROVERS } from "../../../../data-sources/nasa/index.ts";

const apodRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/nasa/apod",
  summary: "NASA's Astronomy Picture of the Day",
  tags,
  request: { query: z.object({ date: z.string().optional().openapi({ description: "YYYY-MM-DD, default today" }) }) },
  responses: {
    200: jsonResponse(
      z.object({ title: z.string(), explanation: z.string(), url: z.string() }).passthrough(),
      "The picture",
    ),
    ...keyedErrors,
    ...upstreamErrors,
  },
});

const handleApod: Handler<typeof apodRoute> = (c, { query }) => apod(sourceContext(c, nasa), query.date);

const marsRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/nasa/mars-photos",
  summary: "Mars rover photos (latest sol by default)",
  tags,
  request: {
    query: z.object({
      rover: z.enum(ROVERS).default("curiosity"),
      sol: z.coerce.number().int().min(0).optional(),
      camera: z.string().max(20).optional(),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        rover: z.string(),
        photos: z.array(z.object({ earth_date: z.string(), id: z.number().int(), img_src: z.string() }).passthrough()),
      }),
      "Photos",
    ),
    ...keyedErrors,
    ...upstreamErrors,
  },
});

const handleMars: Handler<typeof marsRoute> = (c, { query }) =>
  marsPhotos(sourceContext(c, nasa), query.rover, query.sol, query.camera);

const neoRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/nasa/neo",
  summary: "Near-Earth objects approaching between two dates",
  tags,
  request: { query: z.object({ start_date: z.string().optional(), end_date: z.string().optional() }) },
  responses: { 200: jsonResponse(Any, "Objects"), ...keyedErrors, ...upstreamErrors },
});

const handleNeo: Handler<typeof neoRoute> = (c, { query }) =>
  nearEarthObjects(sourceContext(c, nasa), query.start_date, query.end_date);

export const nasaRoutes: RouteDef[] = [
  route(apodRoute, handleApod),
  route(marsRoute, handleMars),
  route(neoRoute, handleNeo),
];
