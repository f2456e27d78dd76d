import { z, type RouteHandler } from "@hono/zod-openapi";
import type { AreaApp } from "../../gateway/http/area.ts";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { plainHandler } from "../../gateway/http/plain-route.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { untrustedContent } from "../../upstream/untrusted-response.ts";
import { multiSearch } from "./multi-search.ts";
import { dataSource, SOURCES } from "./registry.ts";
import { SearchRecordSchema, SearchResult, searchAnswer, sourceContext, tags, upstreamErrors } from "./schemas.ts";
import { SearchQuery } from "./search-query.ts";

// The routes every source answers; each source's own endpoints are in ./sources/<name>/routes.ts.

const sources = gatewayRoute("optional", {
  method: "get",
  path: "/v1/data/sources",
  summary: "The data sources this gateway serves",
  tags,
  responses: {
    200: jsonResponse(
      z.object({
        sources: z.array(z.string()),
        details: z.array(z.object({ name: z.string(), description: z.string() })),
      }),
      "Sources",
    ),
  },
});

const handleSources: RouteHandler<typeof sources, GatewayEnv> = (c) =>
  c.json(
    {
      sources: SOURCES.map((s) => s.name),
      details: SOURCES.map((s) => ({ name: s.name, description: s.description })),
    },
    200,
  );

const search = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/{source}/search",
  summary: "Search one source (Form A: q, limit; Form B: query, max_results; default 10 results)",
  tags,
  request: {
    params: z.object({ source: z.string() }),
    query: SearchQuery,
  },
  responses: { 200: jsonResponse(SearchResult, "Results"), ...keyedErrors, ...upstreamErrors },
});

const handleSearch = plainHandler(search, (c, { params, query }) =>
  searchAnswer(c, dataSource(params.source), query, 10),
);

const get = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/{source}/get/{item_id}",
  summary: "One item from a source by its id (preprint id, DOI, title, ISBN…)",
  tags,
  request: { params: z.object({ source: z.string(), item_id: z.string().min(1).max(300) }) },
  responses: {
    200: jsonResponse(z.object({ id: z.string(), result: z.unknown(), source: z.string() }), "The item"),
    ...keyedErrors,
    ...upstreamErrors,
  },
});

const handleGet = plainHandler(get, async (c, { params: { source: name, item_id } }) => {
  const source = dataSource(name);
  return { id: item_id, result: await source.get(sourceContext(c, source), item_id), source: source.name };
});

const multi = gatewayRoute("key", {
  method: "post",
  path: "/v1/data/multi-search",
  summary: "Search several sources in parallel, each within its own time budget",
  tags,
  request: jsonRequest(
    z.object({
      query: z.string().min(1).max(300),
      limit: z.number().int().min(1).max(50).default(5),
      sources: z.array(z.string()).min(1).max(20).optional(),
      budget_ms: z.number().int().min(100).max(30_000).default(5_000),
    }),
  ),
  responses: {
    200: jsonResponse(
      z.object({
        query: z.string(),
        results: z.record(z.string(), z.array(SearchRecordSchema)),
        status: z.record(
          z.string(),
          z.object({
            status: z.enum(["ok", "error", "timeout", "unavailable"]),
            count: z.number().int(),
            ms: z.number().int(),
            error: z.string().optional(),
          }),
        ),
      }),
      "Results grouped by source, with each source's outcome",
    ),
    ...keyedErrors,
  },
});

const handleMulti: RouteHandler<typeof multi, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  const chosen = body.sources ? body.sources.map(dataSource) : SOURCES;
  const { results, status } = await multiSearch(
    chosen,
    c.get("runtime").upstreamCache,
    body.query,
    body.limit,
    body.budget_ms,
  );
  return c.json({ query: body.query, results, status }, 200);
};

/** First in the area: the middleware over every /v1/data answer, and the list of sources. */
export function registerDataSourceList(app: AreaApp): void {
  // Every answer here is a third party's content, and archive snapshots (also reached as wayback/get)
  // carry an archived page's HTML verbatim.
  app.use("/v1/data/*", untrustedContent());

  app.openapi(sources, handleSources);
}

/** Last in the area: the generic /{source}/… routes, after the specific endpoints that share their paths. */
export function registerGenericDataRoutes(app: AreaApp): void {
  app.openapi(search, handleSearch);
  app.openapi(get, handleGet);
  app.openapi(multi, handleMulti);
}
