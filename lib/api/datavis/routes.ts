import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { blankAsAbsent, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { troveCatalogue } from "../../trove/catalogue.ts";
import { CATEGORY_DESCRIPTIONS, countByCategory, VIS_CATEGORIES, VISUALIZATIONS, visualizationsIn } from "./gallery.ts";
import { describeLiveSources, fetchLive, LIVE_SOURCES } from "./live.ts";

const tags = ["DataVis"];

const CategoryCounts = z.record(z.string(), z.number().int());

const IndexSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    total_visualizations: z.number().int(),
    data_sources: z.object({
      trove: z.object({ description: z.string(), datasets_used: z.number().int(), path: z.string() }),
      live: z.array(
        z.object({
          name: z.string(),
          description: z.string(),
          upstream: z.string(),
          credential: z.string().nullable(),
          path: z.string(),
        }),
      ),
    }),
    endpoints: z.array(z.object({ method: z.string(), path: z.string(), description: z.string() })),
  })
  .openapi("DatavisIndex");

const ENDPOINTS = [
  { method: "GET", path: "/v1/datavis/", description: "this index (key optional)" },
  { method: "GET", path: "/v1/datavis/categories", description: "categories with counts" },
  {
    method: "GET",
    path: "/v1/datavis/list?category=",
    description: "visualizations with their Vega-Lite specs; category filters (400 if unknown)",
  },
  {
    method: "GET",
    path: "/v1/datavis/proxy/{source}",
    description: `live data for ${LIVE_SOURCES.join(", ")}; cached 5 minutes; stale: true when it is the last good answer or the shipped snapshot`,
  },
];

const index = gatewayRoute("optional", {
  method: "get",
  // Without the trailing slash: the route table ignores one, so /v1/datavis/ matches too.
  path: "/v1/datavis",
  summary: "What the visualization gallery offers",
  tags,
  responses: { 200: jsonResponse(IndexSchema, "Data sources and endpoints") },
});

const handleIndex: Handler<typeof index> = () => {
  const used = new Set(VISUALIZATIONS.map((v) => v.dataset));
  return {
    name: "DataVis",
    description: `A gallery of ${VISUALIZATIONS.length} Vega-Lite visualizations over the Data Trove's open datasets, plus live data proxies for charts.`,
    total_visualizations: VISUALIZATIONS.length,
    data_sources: {
      trove: {
        description: `Data Trove: ${troveCatalogue().entries.length} open datasets; specs load them from the trove endpoint`,
        datasets_used: used.size,
        path: "/v1/trove/",
      },
      live: describeLiveSources().map((s) => ({ ...s, path: `/v1/datavis/proxy/${s.name}` })),
    },
    endpoints: ENDPOINTS,
  };
};

const categories = gatewayRoute("key", {
  method: "get",
  path: "/v1/datavis/categories",
  summary: "Visualization categories with counts",
  tags,
  responses: {
    200: jsonResponse(
      z.object({
        total_categories: z.number().int(),
        total_visualizations: z.number().int(),
        categories: z.array(
          z.object({ name: z.enum(VIS_CATEGORIES), count: z.number().int(), description: z.string() }),
        ),
        by_category: CategoryCounts,
      }),
      "Every category with how many visualizations it holds",
    ),
    ...keyedErrors,
  },
});

const handleCategories: Handler<typeof categories> = () => {
  const counts = countByCategory();
  return {
    total_categories: VIS_CATEGORIES.length,
    total_visualizations: VISUALIZATIONS.length,
    categories: VIS_CATEGORIES.map((name) => ({
      name,
      count: counts[name],
      description: CATEGORY_DESCRIPTIONS[name],
    })),
    by_category: counts,
  };
};

const VisualizationSchema = z
  .object({
    name: z.string(),
    title: z.string(),
    category: z.enum(VIS_CATEGORIES),
    description: z.string(),
    dataset: z.string().openapi({ description: "the trove dataset the chart reads, as category/id" }),
    spec: z
      .record(z.string(), z.unknown())
      .openapi({ description: "Vega-Lite v6 spec; its data URL is the trove endpoint, relative to the gateway" }),
  })
  .openapi("Visualization");

// An empty filter (`?category=`, what a form with nothing chosen sends) means no filter.
const CategoryFilter = blankAsAbsent(
  z
    .enum(VIS_CATEGORIES, {
      error: (issue) =>
        `unknown visualization category '${String(issue.input)}'; expected one of ${VIS_CATEGORIES.join(", ")}`,
    })
    .optional(),
).openapi({ description: "only this category; empty means all; an unknown one is a 400" });

const list = gatewayRoute("key", {
  method: "get",
  path: "/v1/datavis/list",
  summary: "Visualizations (Vega-Lite specs over Data Trove datasets), optionally of one category",
  tags,
  request: { query: z.object({ category: CategoryFilter }) },
  responses: {
    200: jsonResponse(
      z.object({
        total: z.number().int(),
        category: z.string().nullable(),
        visualizations: z.array(VisualizationSchema),
        by_category: CategoryCounts,
      }),
      "The visualizations, with counts per category of those returned",
    ),
    ...keyedErrors,
  },
});

const handleList: Handler<typeof list> = (_c, { query: { category } }) => {
  const visualizations = visualizationsIn(category);
  return {
    total: visualizations.length,
    category: category ?? null,
    visualizations,
    by_category: countByCategory(visualizations),
  };
};

const LiveSchema = z
  .object({
    source: z.enum(LIVE_SOURCES),
    description: z.string(),
    upstream: z.object({ name: z.string(), url: z.string() }),
    stale: z.boolean(),
    cached: z.boolean(),
    snapshot: z.boolean(),
    fetched_at: z.string().nullable(),
    note: z.string().optional(),
    data: z
      .unknown()
      .openapi({ description: "the upstream's own JSON (USGS GeoJSON, CoinGecko coins/markets, WAQI map/bounds)" }),
  })
  .openapi("DatavisLiveData");

// The messages name the value and the choices, so "400 unknown datavis source" reads as such.
const LiveSource = z
  .enum(LIVE_SOURCES, {
    error: (issue) => `unknown datavis source '${String(issue.input)}'; expected one of ${LIVE_SOURCES.join(", ")}`,
  })
  .openapi({ description: "earthquake (USGS), crypto (CoinGecko) or airquality (WAQI)" });

// The upstream's own JSON is passed on: its answers carry third-party bytes.
const proxy = gatewayRoute(
  "key",
  {
    method: "get",
    path: "/v1/datavis/proxy/{source}",
    summary:
      "Live data for charts (earthquakes, crypto prices, air quality), cached 5 minutes, stale fallback when the upstream fails",
    tags,
    request: { params: z.object({ source: LiveSource }) },
    responses: {
      200: jsonResponse(LiveSchema, "Live, cached, last good or snapshot data; stale says which"),
      ...keyedErrors,
    },
  },
  { untrusted: true },
);

const handleProxy: Handler<typeof proxy> = async (c, { params: { source } }) =>
  fetchLive(source, c.runtime.upstreamCache);

export const datavisRoutes: RouteDef[] = [
  route(index, handleIndex),
  route(categories, handleCategories),
  route(list, handleList),
  route(proxy, handleProxy),
];
