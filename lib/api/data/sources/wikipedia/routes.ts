import { z, type RouteHandler } from "@hono/zod-openapi";
import type { AreaApp } from "../../../../gateway/http/area.ts";
import type { GatewayEnv } from "../../../../gateway/http/context.ts";
import { plainHandler } from "../../../../gateway/http/plain-route.ts";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { SearchResult, searchAnswer, sourceContext, tags, upstreamErrors } from "../../schemas.ts";
import { SearchQuery } from "../../search-query.ts";
import { wikipedia, wikipediaSummary } from "./index.ts";

const wikipediaSearch = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/wikipedia/search",
  summary: "Search Wikipedia (default 5 results)",
  tags,
  request: { query: SearchQuery },
  responses: { 200: jsonResponse(SearchResult, "Articles"), ...keyedErrors, ...upstreamErrors },
});

const handleWikipediaSearch = plainHandler(wikipediaSearch, (c, { query }) => searchAnswer(c, wikipedia, query, 5));

const wikipediaSummaryRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/wikipedia/summary/{title}",
  summary: "A Wikipedia page's summary",
  tags,
  request: { params: z.object({ title: z.string().min(1).max(300) }) },
  responses: {
    200: jsonResponse(
      z.object({
        title: z.string(),
        extract: z.string(),
        thumbnail: z.string().nullable(),
        description: z.string().nullable(),
        url: z.string(),
      }),
      "Summary",
    ),
    ...keyedErrors,
    ...upstreamErrors,
  },
});

const handleWikipediaSummary: RouteHandler<typeof wikipediaSummaryRoute, GatewayEnv> = async (c) =>
  c.json(await wikipediaSummary(sourceContext(c, wikipedia), c.req.valid("param").title), 200);

export function registerWikipediaRoutes(app: AreaApp): void {
  app.openapi(wikipediaSearch, handleWikipediaSearch);
  app.openapi(wikipediaSummaryRoute, handleWikipediaSummary);
}
