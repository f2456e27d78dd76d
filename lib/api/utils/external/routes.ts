import { z, type RouteHandler } from "@hono/zod-openapi";
import { GatewayError } from "../../../errors.ts";
import type { AreaApp } from "../../../gateway/http/area.ts";
import type { GatewayEnv, RequestVariables } from "../../../gateway/http/context.ts";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { contextFor } from "../../data/source.ts";
import { archive } from "../../data/sources/archive/index.ts";
import { headlines, news, newsSearch } from "../../data/sources/news/index.ts";
import { bookByIsbn, openlibrary, searchBooks } from "../../data/sources/openlibrary/index.ts";
import { ARCHIVE_JOB, createArchiveJob, waybackSummary } from "./archive-jobs.ts";
import { WEBSEARCH_UPSTREAM, webSearch } from "./web-search.ts";

// The utilities that are views over third-party services. Their URLs, key scope and usage are the
// utils area's; the news, books and archive ones call the data area's sources through the same
// clients (one per source and runtime), so they share its caches and circuit breakers.
const tags = ["Utilities"];
const Any = z.record(z.string(), z.unknown());
const upstreamErrors = {
  502: jsonResponse(ErrorSchema, "The service failed"),
  503: jsonResponse(ErrorSchema, "Not configured, rate limited or temporarily unavailable"),
  504: jsonResponse(ErrorSchema, "The service did not answer in time"),
};
const cache = (c: RequestVariables) => c.get("runtime").upstreamCache;

const headlinesRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/utils/news/headlines",
  summary: "Top headlines",
  tags,
  request: {
    query: z.object({
      country: z
        .string()
        .regex(/^[a-z]{2}$/i)
        .default("us"),
      category: z
        .enum(["business", "technology", "science", "health", "sports", "entertainment", "general"])
        .optional(),
      q: z.string().max(300).optional(),
      page_size: z.coerce.number().int().min(1).max(100).default(20),
    }),
  },
  responses: { 200: jsonResponse(Any, "Articles"), ...keyedErrors, ...upstreamErrors },
});

const handleHeadlines: RouteHandler<typeof headlinesRoute, GatewayEnv> = async (c) => {
  const q = c.req.valid("query");
  return c.json(
    await headlines(contextFor(news, cache(c)), {
      country: q.country.toLowerCase(),
      category: q.category,
      q: q.q,
      pageSize: q.page_size,
    }),
    200,
  );
};
const DATE = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD");

const newsSearchRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/utils/news/search",
  summary: "Search news articles",
  tags,
  request: {
    query: z.object({
      q: z.string().min(1).max(500),
      from: DATE.optional(),
      to: DATE.optional(),
      sort_by: z.enum(["relevancy", "popularity", "publishedAt"]).default("publishedAt"),
      page_size: z.coerce.number().int().min(1).max(100).default(20),
    }),
  },
  responses: { 200: jsonResponse(Any, "Articles"), ...keyedErrors, ...upstreamErrors },
});

const handleNewsSearch: RouteHandler<typeof newsSearchRoute, GatewayEnv> = async (c) => {
  const q = c.req.valid("query");
  return c.json(
    await newsSearch(contextFor(news, cache(c)), q.q, {
      from: q.from,
      to: q.to,
      sortBy: q.sort_by,
      pageSize: q.page_size,
    }),
    200,
  );
};
const webSearchSource = { name: "websearch", upstream: WEBSEARCH_UPSTREAM };

const web = gatewayRoute("key", {
  method: "get",
  path: "/v1/utils/search",
  summary: "Web search: organic results with title, URL and snippet",
  tags,
  request: {
    query: z.object({
      q: z.string().min(1).max(500),
      num: z.coerce.number().int().min(1).max(100).default(10),
      gl: z
        .string()
        .regex(/^[a-z]{2}$/i)
        .optional(),
    }),
  },
  responses: { 200: jsonResponse(Any, "Results"), ...keyedErrors, ...upstreamErrors },
});

const handleWeb: RouteHandler<typeof web, GatewayEnv> = async (c) => {
  const q = c.req.valid("query");
  return c.json(await webSearch(contextFor(webSearchSource, cache(c)), q.q, q.num, q.gl?.toLowerCase()), 200);
};

const books = gatewayRoute("key", {
  method: "get",
  path: "/v1/utils/books/search",
  summary: "Search books (Open Library)",
  tags,
  request: {
    query: z.object({ q: z.string().min(1).max(300), limit: z.coerce.number().int().min(1).max(100).default(10) }),
  },
  responses: { 200: jsonResponse(Any, "Books"), ...keyedErrors, ...upstreamErrors },
});

const handleBooks: RouteHandler<typeof books, GatewayEnv> = async (c) => {
  const q = c.req.valid("query");
  const results = await searchBooks(contextFor(openlibrary, cache(c)), q.q, q.limit);
  return c.json({ query: q.q, count: results.length, results }, 200);
};

const isbn = gatewayRoute("key", {
  method: "get",
  path: "/v1/utils/books/isbn/{isbn}",
  summary: "A book by ISBN",
  tags,
  request: { params: z.object({ isbn: z.string().min(10).max(17) }) },
  responses: {
    200: jsonResponse(Any, "The book"),
    ...keyedErrors,
    404: jsonResponse(ErrorSchema, "Unknown ISBN"),
    ...upstreamErrors,
  },
});

const handleIsbn: RouteHandler<typeof isbn, GatewayEnv> = async (c) =>
  c.json(await bookByIsbn(contextFor(openlibrary, cache(c)), c.req.valid("param").isbn), 200);

const wayback = gatewayRoute("key", {
  method: "get",
  path: "/v1/utils/archive/wayback",
  summary: "How often and when a URL was archived",
  tags,
  request: { query: z.object({ url: z.string().url() }) },
  responses: {
    200: jsonResponse(
      z
        .object({
          url: z.string(),
          first: z.string().nullable(),
          last: z.string().nullable(),
          snapshot_count: z.number().int(),
        })
        .passthrough(),
      "Summary",
    ),
    ...keyedErrors,
    ...upstreamErrors,
  },
});

const handleWayback: RouteHandler<typeof wayback, GatewayEnv> = async (c) =>
  c.json(await waybackSummary(contextFor(archive, cache(c)), c.req.valid("query").url), 200);

const archiveCreate = gatewayRoute("key", {
  method: "post",
  path: "/v1/utils/archive/create",
  summary: "Ask the Wayback Machine to save a page (a background job)",
  tags,
  request: jsonRequest(z.object({ url: z.string().url() })),
  responses: { 202: jsonResponse(z.object({ job_id: z.string(), status: z.string() }), "Accepted"), ...keyedErrors },
});

const handleArchiveCreate: RouteHandler<typeof archiveCreate, GatewayEnv> = async (c) => {
  const task = await createArchiveJob(
    c.get("runtime"),
    contextFor(archive, cache(c)),
    c.get("key")!,
    c.req.valid("json").url,
  );
  return c.json({ job_id: task.id, status: "pending" }, 202);
};

const archiveJob = gatewayRoute("key", {
  method: "get",
  path: "/v1/utils/archive/jobs/{job_id}",
  summary: "An archive job's status and the snapshot URL when done",
  tags,
  request: { params: z.object({ job_id: z.string().min(1).max(100) }) },
  responses: {
    200: jsonResponse(
      z.object({
        job_id: z.string(),
        status: z.string(),
        url: z.string(),
        snapshot_url: z.string().nullable(),
        error: z.string().nullable(),
      }),
      "Job",
    ),
    ...keyedErrors,
    404: jsonResponse(ErrorSchema, "No such job for this key"),
  },
});

const handleArchiveJob: RouteHandler<typeof archiveJob, GatewayEnv> = async (c) => {
  const task = await c.get("runtime").tasks.getForOwner(c.req.valid("param").job_id, c.get("key")!.id);
  if (!task || task.kind !== ARCHIVE_JOB) throw new GatewayError(404, "no such archive job for this key");
  const result = task.result as { snapshot_url?: string } | null;
  return c.json(
    {
      job_id: task.id,
      status: task.status,
      url: (task.input as { url: string }).url,
      snapshot_url: result?.snapshot_url ?? null,
      error: task.error,
    },
    200,
  );
};

const EXTERNAL = {
  news: {
    description: "Headlines and article search (NewsAPI)",
    endpoints: ["GET /v1/utils/news/headlines", "GET /v1/utils/news/search"],
    credential: "NEWS_API_KEY",
  },
  search: {
    description: "Web search (Serper, Google results)",
    endpoints: ["GET /v1/utils/search"],
    credential: "SERPER_API_KEY",
  },
  books: {
    description: "Book search and ISBN lookup (Open Library)",
    endpoints: ["GET /v1/utils/books/search", "GET /v1/utils/books/isbn/{isbn}"],
    credential: null,
  },
  archive: {
    description: "Wayback Machine summaries and page saving (Internet Archive)",
    endpoints: [
      "GET /v1/utils/archive/wayback",
      "POST /v1/utils/archive/create",
      "GET /v1/utils/archive/jobs/{job_id}",
    ],
    credential: null,
  },
};

const external = gatewayRoute("key", {
  method: "get",
  path: "/v1/utils/external",
  summary: "Utilities that call third-party services, and whether each is configured",
  tags,
  responses: {
    200: jsonResponse(
      z.object({
        external_utilities: z.record(
          z.string(),
          z.object({
            description: z.string(),
            endpoints: z.array(z.string()),
            configured: z.boolean(),
            credential: z.string().nullable(),
          }),
        ),
      }),
      "Listing",
    ),
    ...keyedErrors,
  },
});

const handleExternal: RouteHandler<typeof external, GatewayEnv> = (c) =>
  c.json(
    {
      external_utilities: Object.fromEntries(
        Object.entries(EXTERNAL).map(([name, u]) => [
          name,
          { ...u, configured: u.credential ? Boolean(process.env[u.credential]?.trim()) : true },
        ]),
      ),
    },
    200,
  );

export function registerExternalUtilityRoutes(app: AreaApp): void {
  app.openapi(headlinesRoute, handleHeadlines);
  app.openapi(newsSearchRoute, handleNewsSearch);
  app.openapi(web, handleWeb);
  app.openapi(books, handleBooks);
  app.openapi(isbn, handleIsbn);
  app.openapi(wayback, handleWayback);
  app.openapi(archiveCreate, handleArchiveCreate);
  app.openapi(archiveJob, handleArchiveJob);
  app.openapi(external, handleExternal);
}
