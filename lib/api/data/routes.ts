import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../gateway/pipeline/route.ts";
import { multiSearch } from "./multi-search.ts";
import { dataSource, listedSources } from "../../data-sources/registry.ts";
import { SearchRecordSchema, SearchResult, searchAnswer, sourceContext, tags } from "./schemas.ts";
import { upstreamErrors } from "../../data-sources/error-responses.ts";
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

/** The list of sources. */
export const dataSourceListRoutes: RouteDef[] = [
  route(sources, () => {
    const all = listedSources();
    return { sources: all.map((s) => s.name), details: all.map((s) => ({ name: s.name, description: s.description })) };
  }),
];

/** The generic /{source}/… routes, and the search over several sources. */
export const genericDataRoutes: RouteDef[] = [
  route(search, (c, { params, query }) => searchAnswer(c, dataSource(params.source), query, 10)),
  route(get, async (c, { params: { source: name, item_id } }) => {
    const source = dataSource(name);
    return { id: item_id, result: await source.get(sourceContext(c, source), item_id), source: source.name };
  }),
  route(multi, async (c, { body }) => {
    const chosen = body.sources ? body.sources.map(dataSource) : listedSources();
    const { results, status } = await multiSearch(
      chosen,
      c.runtime.upstreamCache,
      body.query,
      body.limit,
      body.budget_ms,
      c.trace,
    );
    return { query: body.query, results, status };
  }),
];
