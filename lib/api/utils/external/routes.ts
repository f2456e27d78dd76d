import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../../errors.ts";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { Reply } from "../../../gateway/pipeline/answer.ts";
import type { Call } from "../../../gateway/pipeline/call.ts";
import { route, type Handler, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { contextFor } from "../../../data-sources/source.ts";
import { archive } from "../../../data-sources/archive/index.ts";
import { headlines, news, newsSearch } from "../../../data-sources/news/index.ts";
import { bookByIsbn, openlibrary, searchBooks } from "../../../data-sources/openlibrary/index.ts";
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
const cache = (c: Call) => c.runtime.upstreamCache;

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

const handleHeadlines: Handler<typeof headlinesRoute> = (c, { query: q }) =>
  headlines(contextFor(news, cache(c), c.trace), {
    country: q.country.toLowerCase(),
    category: q.category,
    q: q.q,
    pageSize: q.page_size,
  });
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

const handleNewsSearch: Handler<typeof newsSearchRoute> = (c, { query: q }) =>
  newsSearch(contextFor(news, cache(c), c.trace), q.q, {
    from: q.from,
    to: q.to,
    sortBy: q.sort_by,
    pageSize: q.page_size,
  });
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

const handleWeb: Handler<typeof web> = (c, { query: q }) =>
  webSearch(contextFor(webSearchSource, cache(c), c.trace), q.q, q.num, q.gl?.toLowerCase());

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

const handleBooks: Handler<typeof books> = async (c, { query: q }) => {
  const results = await searchBooks(contextFor(openlibrary, cache(c), c.trace), q.q, q.limit);
  return { query: q.q, count: results.length, results };
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

const handleIsbn: Handler<typeof isbn> = (c, { params }) =>
  bookByIsbn(contextFor(openlibrary, cache(c), c.trace), params.isbn);

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

const handleWayback: Handler<typeof wayback> = (c, { query }) =>
  waybackSummary(contextFor(archive, cache(c), c.trace), query.url);

const archiveCreate = gatewayRoute("key", {
  method: "post",
  path: "/v1/utils/archive/create",
  summary: "Ask the Wayback Machine to save a page (a background job)",
  tags,
  request: jsonRequest(z.object({ url: z.string().url() })),
  responses: { 202: jsonResponse(z.object({ job_id: z.string(), status: z.string() }), "Accepted"), ...keyedErrors },
});

const handleArchiveCreate: Handler<typeof archiveCreate> = async (c, { body }) => {
  const task = await createArchiveJob(c.runtime, contextFor(archive, cache(c)), c.key!, body.url);
  return Reply.json({ job_id: task.id, status: "pending" }, 202);
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

const handleArchiveJob: Handler<typeof archiveJob> = async (c, { params }) => {
  const task = await c.runtime.tasks.getForOwner(params.job_id, c.key!.id);
  if (!task || task.kind !== ARCHIVE_JOB) throw new GatewayError(404, "no such archive job for this key");
  const result = task.result as { snapshot_url?: string } | null;
  return {
    job_id: task.id,
    status: task.status,
    url: (task.input as { url: string }).url,
    snapshot_url: result?.snapshot_url ?? null,
    error: task.error,
  };
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

const handleExternal: Handler<typeof external> = () => ({
  external_utilities: Object.fromEntries(
    Object.entries(EXTERNAL).map(([name, u]) => [
      name,
      { ...u, configured: u.credential ? Boolean(process.env[u.credential]?.trim()) : true },
    ]),
  ),
});

export const externalUtilityRoutes: RouteDef[] = [
  route(headlinesRoute, handleHeadlines),
  route(newsSearchRoute, handleNewsSearch),
  route(web, handleWeb),
  route(books, handleBooks),
  route(isbn, handleIsbn),
  route(wayback, handleWayback),
  route(archiveCreate, handleArchiveCreate),
  route(archiveJob, handleArchiveJob),
  route(external, handleExternal),
];
