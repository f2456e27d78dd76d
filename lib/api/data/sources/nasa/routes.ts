import { z, type RouteHandler } from "@hono/zod-openapi";
import type { AreaApp } from "../../../../gateway/http/area.ts";
import type { GatewayEnv } from "../../../../gateway/http/context.ts";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { Any, sourceContext, tags, upstreamErrors } from "../../schemas.ts";
import { apod, marsPhotos, nasa, nearEarthObjects, ROVERS } from "./index.ts";

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

const handleApod: RouteHandler<typeof apodRoute, GatewayEnv> = async (c) =>
  c.json(await apod(sourceContext(c, nasa), c.req.valid("query").date), 200);

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

const handleMars: RouteHandler<typeof marsRoute, GatewayEnv> = async (c) => {
  const q = c.req.valid("query");
  return c.json(await marsPhotos(sourceContext(c, nasa), q.rover, q.sol, q.camera), 200);
};

const neoRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/nasa/neo",
  summary: "Near-Earth objects approaching between two dates",
  tags,
  request: { query: z.object({ start_date: z.string().optional(), end_date: z.string().optional() }) },
  responses: { 200: jsonResponse(Any, "Objects"), ...keyedErrors, ...upstreamErrors },
});

const handleNeo: RouteHandler<typeof neoRoute, GatewayEnv> = async (c) => {
  const q = c.req.valid("query");
  return c.json(await nearEarthObjects(sourceContext(c, nasa), q.start_date, q.end_date), 200);
};

export function registerNasaRoutes(app: AreaApp): void {
  app.openapi(apodRoute, handleApod);
  app.openapi(marsRoute, handleMars);
  app.openapi(neoRoute, handleNeo);
}
