import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { blankAsAbsent, ErrorSchema, jsonResponse, RateLimitErrorSchema } from "../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { buildTroveIndex, findDataset, listCategory } from "../../trove/catalogue.ts";
import { datasetRows, pageRows } from "../../trove/rows.ts";

const tags = ["Data Trove"];

/** The largest shipped dataset (US ZIP codes) has 42,049 rows: one page can hold any dataset whole. */
export const MAX_ROWS_PER_PAGE = 50_000;

const Category = z.string().min(1).max(64).openapi({ description: "category name, e.g. environmental" });
const badRequest = { 400: jsonResponse(ErrorSchema, "Invalid parameters") };

const IndexSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    total_categories: z.number().int(),
    total_datasets: z.number().int(),
    categories: z.record(
      z.string(),
      z.object({ dataset_count: z.number().int(), datasets: z.array(z.string()), path: z.string() }),
    ),
    usage: z.string(),
  })
  .openapi("TroveIndex");

const index = gatewayRoute("optional", {
  method: "get",
  // Declared without the trailing slash: the route table ignores one, so /v1/trove/ and /v1/trove both match.
  path: "/v1/trove",
  summary: "Categories and datasets of the Data Trove",
  tags,
  responses: { 200: jsonResponse(IndexSchema, "Every category with its dataset ids and counts") },
});

const CategorySchema = z
  .object({
    category: z.string(),
    total: z.number().int(),
    datasets: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        description: z.string(),
        format: z.enum(["csv", "json"]),
        size: z.number().int().openapi({ description: "file size in bytes" }),
        rows: z.number().int(),
        licence: z.string(),
        path: z.string(),
      }),
    ),
  })
  .openapi("TroveCategory");

const category = gatewayRoute("none", {
  method: "get",
  path: "/v1/trove/{category}",
  summary: "The datasets of one category, with file sizes",
  tags,
  request: { params: z.object({ category: Category }) },
  responses: {
    200: jsonResponse(CategorySchema, "The category's datasets"),
    ...badRequest,
    404: jsonResponse(ErrorSchema, "Unknown category"),
  },
});

const handleCategory: Handler<typeof category> = (_c, { params: { category: name } }) => {
  const datasets = listCategory(name).map((d) => ({
    id: d.id,
    title: d.title,
    description: d.description,
    format: d.format,
    size: d.size,
    rows: d.rows,
    licence: d.licence,
    path: `/v1/trove/${d.category}/${d.id}`,
  }));
  return { category: name, total: datasets.length, datasets };
};

const SourceSchema = z.object({ package: z.string(), url: z.string(), file: z.string().optional() });

const DatasetSchema = z
  .object({
    category: z.string(),
    dataset: z.string(),
    title: z.string(),
    format: z.enum(["csv", "json"]),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    data: z.array(z.record(z.string(), z.unknown())),
    metadata: z.object({
      description: z.string(),
      licence: z.string(),
      source: SourceSchema,
      fields: z.array(z.object({ name: z.string(), type: z.enum(["number", "string", "boolean"]) })),
      size: z.number().int(),
    }),
  })
  .openapi("TroveDataset");

const dataset = gatewayRoute(
  "none",
  {
    method: "get",
    path: "/v1/trove/{category}/{dataset}",
    summary: "Rows of one dataset as JSON (CSV files are converted, values typed)",
    tags,
    request: {
      params: z.object({
        category: Category,
        dataset: z.string().min(1).max(100).openapi({ description: "dataset id, without file extension" }),
      }),
      query: z.object({
        limit: blankAsAbsent(z.coerce.number().int().min(1).max(MAX_ROWS_PER_PAGE).default(100)).openapi({
          description: `rows to return (1–${MAX_ROWS_PER_PAGE}, default 100; empty means the default)`,
        }),
        offset: blankAsAbsent(z.coerce.number().int().min(0).default(0)).openapi({
          description: "rows to skip (default 0)",
        }),
      }),
    },
    responses: {
      200: jsonResponse(DatasetSchema, "One page of rows with the dataset's licence and source"),
      ...badRequest,
      404: jsonResponse(ErrorSchema, "Unknown category or dataset"),
      429: jsonResponse(RateLimitErrorSchema, "Too many requests from this client address"),
    },
    // A page is up to 50,000 rows (~5 MB of JSON, ~100 ms of the event loop): real work, unlike the listings.
  },
  { limitKeyless: true },
);

const handleDataset: Handler<typeof dataset> = (_c, { params, query }) => {
  const { category: name, dataset: id } = params;
  const { limit, offset } = query;
  const entry = findDataset(name, id);
  const page = pageRows(datasetRows(entry), limit, offset);
  return {
    category: entry.category,
    dataset: entry.id,
    title: entry.title,
    format: entry.format,
    total: page.total,
    limit,
    offset,
    data: page.data,
    metadata: {
      description: entry.description,
      licence: entry.licence,
      source: entry.source,
      fields: entry.fields,
      size: entry.size,
    },
  };
};

export const troveRoutes: RouteDef[] = [
  route(index, () => buildTroveIndex()),
  route(category, handleCategory),
  route(dataset, handleDataset),
];
