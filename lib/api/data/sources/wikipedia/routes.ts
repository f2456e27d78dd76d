import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../../../gateway/pipeline/route.ts";
import { SearchResult, searchAnswer, sourceContext, tags } from "../../schemas.ts";
import { upstreamErrors } from "../../../../data-sources/error-responses.ts";
import { SearchQuery } from "../../search-query.ts";
import { wikipedia, wikipediaSummary } from "../../../../data-sources/wikipedia/index.ts";

const wikipediaSearch = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/wikipedia/search",
  summary: "Search Wikipedia (default 5 results)",
  tags,
  request: { query: SearchQuery },
  responses: { 200: jsonResponse(SearchResult, "Articles"), ...keyedErrors, ...upstreamErrors },
});

const handleWikipediaSearch: Handler<typeof wikipediaSearch> = (c, { query }) => searchAnswer(c, wikipedia, query, 5);

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

const handleWikipediaSummary: Handler<typeof wikipediaSummaryRoute> = (c, { params }) =>
  wikipediaSummary(sourceContext(c, wikipedia), params.title);

export const wikipediaRoutes: RouteDef[] = [
  route(wikipediaSearch, handleWikipediaSearch),
  route(wikipediaSummaryRoute, handleWikipediaSummary),
];
