import { z } from "@hono/zod-openapi";
import type { AreaApp } from "../../../../gateway/http/area.ts";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { Any, sourceContext, tags, upstreamErrors } from "../../schemas.ts";
import { census, GEOGRAPHIES, population, type Geography } from "./index.ts";

const populationRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/census/population",
  summary: "US population by geography (ACS 5-year)",
  tags,
  request: {
    query: z.object({
      geography: z.enum(Object.keys(GEOGRAPHIES) as [Geography, ...Geography[]]).default("state"),
      year: z.coerce.number().int().min(2009).max(2030).default(2022),
      state: z.string().optional().openapi({ description: "Two-digit FIPS code; required for tract" }),
    }),
  },
  responses: { 200: jsonResponse(Any, "Population by area"), ...keyedErrors, ...upstreamErrors },
});

export function registerCensusRoutes(app: AreaApp): void {
  app.openapi(populationRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await population(sourceContext(c, census), q.geography, q.year, q.state), 200);
  });
}
