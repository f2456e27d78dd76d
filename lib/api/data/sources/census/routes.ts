import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../../../gateway/pipeline/route.ts";
import { Any, sourceContext, tags } from "../../schemas.ts";
import { upstreamErrors } from "../../../../data-sources/error-responses.ts";
import { census, GEOGRAPHIES, population, type Geography } from "../../../../data-sources/census/index.ts";

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

export const censusRoutes: RouteDef[] = [
  route(populationRoute, (c, { query }) =>
    population(sourceContext(c, census), query.geography, query.year, query.state),
  ),
];
