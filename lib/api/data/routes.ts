import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { multiSearch } from "./multi-search.ts";
import { dataSource, SOURCES } from "./registry.ts";
import { SearchQuery, searchCount, searchTerms } from "./search-query.ts";
import { cachedSearch, contextFor, type DataSource } from "./source.ts";
import { archive, snapshot } from "./sources/archive/index.ts";
import { census, GEOGRAPHIES, population, type Geography } from "./sources/census/index.ts";
import { cryptoPrices, dailyPrices, finance, fxRates } from "./sources/finance/index.ts";
import { github, repository } from "./sources/github/index.ts";
import { apod, marsPhotos, nasa, nearEarthObjects, ROVERS } from "./sources/nasa/index.ts";
import { bookByIsbn, openlibrary } from "./sources/openlibrary/index.ts";
import { pubmed, pubmedArticle } from "./sources/pubmed/index.ts";
import { wolfram, wolframQuery } from "./sources/wolfram/index.ts";
import { channel, youtube } from "./sources/youtube/index.ts";
import { currentWeather, weather, weatherForecast } from "./sources/weather/index.ts";
import { wikipedia, wikipediaSummary } from "./sources/wikipedia/index.ts";
import { untrustedContent } from "../../upstream/untrusted-response.ts";

const tags = ["Data sources"];
const Record = z
  .object({
    id: z.string(),
    title: z.string(),
    url: z.string().nullable(),
    summary: z.string().nullable(),
    authors: z.array(z.string()).optional(),
    published: z.string().nullable().optional(),
    source: z.string(),
    extra: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("SearchRecord");
const SearchResult = z.object({ source: z.string(), query: z.string(), count: z.number().int(), results: z.array(Record) });
const upstreamErrors = {
  404: jsonResponse(ErrorSchema, "The source has no such item"),
  502: jsonResponse(ErrorSchema, "The source failed"),
  503: jsonResponse(ErrorSchema, "The source is rate limiting us or temporarily unavailable"),
  504: jsonResponse(ErrorSchema, "The source did not answer in time"),
};

const sources = gatewayRoute("optional", {
  method: "get",
  path: "/v1/data/sources",
  summary: "The data sources this gateway serves",
  tags,
  responses: { 200: jsonResponse(z.object({ sources: z.array(z.string()), details: z.array(z.object({ name: z.string(), description: z.string() })) }), "Sources") },
});

const wikipediaSearch = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/wikipedia/search",
  summary: "Search Wikipedia (default 5 results)",
  tags,
  request: { query: SearchQuery },
  responses: { 200: jsonResponse(SearchResult, "Articles"), ...keyedErrors, ...upstreamErrors },
});
const wikipediaSummaryRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/wikipedia/summary/{title}",
  summary: "A Wikipedia page's summary",
  tags,
  request: { params: z.object({ title: z.string().min(1).max(300) }) },
  responses: { 200: jsonResponse(z.object({ title: z.string(), extract: z.string(), thumbnail: z.string().nullable(), description: z.string().nullable(), url: z.string() }), "Summary"), ...keyedErrors, ...upstreamErrors },
});
const openlibraryIsbn = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/openlibrary/isbn/{isbn}",
  summary: "A book by ISBN-10 or ISBN-13",
  tags,
  request: { params: z.object({ isbn: z.string().min(10).max(17) }) },
  responses: { 200: jsonResponse(z.object({ authors: z.array(z.string()), title: z.string(), year: z.number().int().nullable() }).passthrough(), "The book"), ...keyedErrors, ...upstreamErrors },
});
const openlibrarySearch = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/openlibrary/search",
  summary: "Search books (default 10 results)",
  tags,
  request: { query: SearchQuery },
  responses: { 200: jsonResponse(SearchResult, "Books"), ...keyedErrors, ...upstreamErrors },
});
const Location = z.object({ location: z.string().min(1).max(200) });
const weatherCurrent = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/weather/current",
  summary: "Current weather for a place name",
  tags,
  request: { query: Location },
  responses: { 200: jsonResponse(z.record(z.string(), z.unknown()), "Conditions now"), ...keyedErrors, ...upstreamErrors },
});
const weatherForecastRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/weather/forecast",
  summary: "Daily forecast for a place name",
  tags,
  request: { query: Location.extend({ days: z.coerce.number().int().min(1).max(16).default(3) }) },
  responses: {
    200: jsonResponse(z.object({ location: z.string(), forecast: z.array(z.object({ date: z.string(), description: z.string(), high: z.number().nullable(), low: z.number().nullable(), precipitation: z.number().nullable() })) }), "Forecast"),
    ...keyedErrors,
    ...upstreamErrors,
  },
});
const crypto = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/finance/crypto",
  summary: "Crypto prices in USD with 24 h change",
  tags,
  request: { query: z.object({ symbol: z.string().min(1).max(300) }) },
  responses: { 200: jsonResponse(z.record(z.string(), z.object({ price: z.number().nullable(), change_24h: z.number().nullable() })), "Prices by symbol"), ...keyedErrors, ...upstreamErrors },
});
const fx = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/finance/fx",
  summary: "Currency exchange rates (ECB reference rates)",
  tags,
  request: { query: z.object({ base: z.string().default("USD"), symbols: z.string().max(300).optional() }) },
  responses: { 200: jsonResponse(z.object({ base: z.string(), date: z.string(), rates: z.record(z.string(), z.number()) }), "Rates"), ...keyedErrors, ...upstreamErrors },
});
const daily = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/finance/daily",
  summary: "Daily OHLCV prices for a stock symbol",
  tags,
  request: { query: z.object({ symbol: z.string().min(1).max(20) }) },
  responses: { 200: jsonResponse(z.object({ symbol: z.string(), days: z.array(z.record(z.string(), z.unknown())) }), "Daily prices, newest first"), ...keyedErrors, ...upstreamErrors },
});

const Any = z.record(z.string(), z.unknown());
const apodRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/nasa/apod",
  summary: "NASA's Astronomy Picture of the Day",
  tags,
  request: { query: z.object({ date: z.string().optional().openapi({ description: "YYYY-MM-DD, default today" }) }) },
  responses: { 200: jsonResponse(z.object({ title: z.string(), explanation: z.string(), url: z.string() }).passthrough(), "The picture"), ...keyedErrors, ...upstreamErrors },
});
const marsRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/nasa/mars-photos",
  summary: "Mars rover photos (latest sol by default)",
  tags,
  request: { query: z.object({ rover: z.enum(ROVERS).default("curiosity"), sol: z.coerce.number().int().min(0).optional(), camera: z.string().max(20).optional() }) },
  responses: { 200: jsonResponse(z.object({ rover: z.string(), photos: z.array(z.object({ earth_date: z.string(), id: z.number().int(), img_src: z.string() }).passthrough()) }), "Photos"), ...keyedErrors, ...upstreamErrors },
});
const neoRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/nasa/neo",
  summary: "Near-Earth objects approaching between two dates",
  tags,
  request: { query: z.object({ start_date: z.string().optional(), end_date: z.string().optional() }) },
  responses: { 200: jsonResponse(Any, "Objects"), ...keyedErrors, ...upstreamErrors },
});
const repoRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/github/repo/{owner}/{repo}",
  summary: "A GitHub repository",
  tags,
  request: { params: z.object({ owner: z.string(), repo: z.string() }) },
  responses: { 200: jsonResponse(Any, "The repository"), ...keyedErrors, ...upstreamErrors },
});
const articleRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/pubmed/article/{pmid}",
  summary: "A PubMed article's metadata and abstract",
  tags,
  request: { params: z.object({ pmid: z.string() }) },
  responses: { 200: jsonResponse(Any, "The article"), ...keyedErrors, ...upstreamErrors },
});

const snapshotRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/archive/snapshot",
  summary: "The archived page closest to a time (default: the most recent)",
  tags,
  request: { query: z.object({ url: z.string().min(1).max(2000), timestamp: z.string().optional().openapi({ description: "YYYYMMDDHHMMSS" }) }) },
  responses: { 200: jsonResponse(z.object({ content: z.string(), timestamp: z.string(), url: z.string() }).passthrough(), "The snapshot"), ...keyedErrors, ...upstreamErrors },
});
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

const channelRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/youtube/channel/{channel_id}",
  summary: "A YouTube channel with its statistics",
  tags,
  request: { params: z.object({ channel_id: z.string() }) },
  responses: { 200: jsonResponse(Any, "The channel"), ...keyedErrors, ...upstreamErrors },
});
const wolframRoute = gatewayRoute("key", {
  method: "post",
  path: "/v1/data/wolfram/query",
  summary: "Ask Wolfram|Alpha",
  tags,
  request: jsonRequest(z.object({ query: z.string().min(1).max(2000) })),
  responses: { 200: jsonResponse(z.object({ result: z.string().nullable(), pods: z.array(z.record(z.string(), z.unknown())) }).passthrough(), "The answer and every pod"), ...keyedErrors, ...upstreamErrors },
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
  responses: { 200: jsonResponse(z.object({ id: z.string(), result: z.unknown(), source: z.string() }), "The item"), ...keyedErrors, ...upstreamErrors },
});
const multi = gatewayRoute("key", {
  method: "post",
  path: "/v1/data/multi-search",
  summary: "Search several sources in parallel, each within its own time budget",
  tags,
  request: jsonRequest(
    z.object({ query: z.string().min(1).max(300), limit: z.number().int().min(1).max(50).default(5), sources: z.array(z.string()).min(1).max(20).optional(), budget_ms: z.number().int().min(100).max(30_000).default(5_000) }),
  ),
  responses: {
    200: jsonResponse(
      z.object({
        query: z.string(),
        results: z.record(z.string(), z.array(Record)),
        status: z.record(z.string(), z.object({ status: z.enum(["ok", "error", "timeout", "unavailable"]), count: z.number().int(), ms: z.number().int(), error: z.string().optional() })),
      }),
      "Results grouped by source, with each source's outcome",
    ),
    ...keyedErrors,
  },
});

/** One source's search answer, in the shape every search route shares; the spec's default count differs by route. */
async function searchAnswer(c: { var: GatewayEnv["Variables"] }, source: DataSource, q: z.infer<typeof SearchQuery>, defaultCount: number) {
  const terms = searchTerms(q);
  const results = await cachedSearch(source, c.var.runtime.upstreamCache, terms, searchCount(q, defaultCount));
  return { source: source.name, query: terms, count: results.length, results };
}

export function registerDataRoutes(app: OpenAPIHono<GatewayEnv>): void {
  const ctx = (c: { var: GatewayEnv["Variables"] }, source: DataSource) => contextFor(source, c.var.runtime.upstreamCache);
  // Every answer here is a third party's content, and archive snapshots (also reached as wayback/get)
  // carry an archived page's HTML verbatim.
  app.use("/v1/data/*", untrustedContent());

  app.openapi(sources, (c) => c.json({ sources: SOURCES.map((s) => s.name), details: SOURCES.map((s) => ({ name: s.name, description: s.description })) }, 200));
  // Specific endpoints first: they share paths with the generic /{source}/… routes.
  app.openapi(wikipediaSearch, async (c) => c.json(await searchAnswer(c, wikipedia, c.req.valid("query"), 5), 200));
  app.openapi(wikipediaSummaryRoute, async (c) => c.json(await wikipediaSummary(ctx(c, wikipedia), c.req.valid("param").title), 200));
  app.openapi(openlibraryIsbn, async (c) => c.json(await bookByIsbn(ctx(c, openlibrary), c.req.valid("param").isbn), 200));
  app.openapi(openlibrarySearch, async (c) => c.json(await searchAnswer(c, openlibrary, c.req.valid("query"), 10), 200));
  app.openapi(weatherCurrent, async (c) => c.json(await currentWeather(ctx(c, weather), c.req.valid("query").location), 200));
  app.openapi(weatherForecastRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await weatherForecast(ctx(c, weather), q.location, q.days), 200);
  });
  app.openapi(crypto, async (c) => c.json(await cryptoPrices(ctx(c, finance), c.req.valid("query").symbol.split(",")), 200));
  app.openapi(fx, async (c) => {
    const q = c.req.valid("query");
    return c.json(await fxRates(ctx(c, finance), q.base, q.symbols?.split(",").filter(Boolean)), 200);
  });
  app.openapi(daily, async (c) => c.json(await dailyPrices(ctx(c, finance), c.req.valid("query").symbol), 200));
  app.openapi(apodRoute, async (c) => c.json(await apod(ctx(c, nasa), c.req.valid("query").date), 200));
  app.openapi(marsRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await marsPhotos(ctx(c, nasa), q.rover, q.sol, q.camera), 200);
  });
  app.openapi(neoRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await nearEarthObjects(ctx(c, nasa), q.start_date, q.end_date), 200);
  });
  app.openapi(repoRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await repository(ctx(c, github), p.owner, p.repo), 200);
  });
  app.openapi(articleRoute, async (c) => c.json(await pubmedArticle(ctx(c, pubmed), c.req.valid("param").pmid), 200));
  app.openapi(snapshotRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await snapshot(ctx(c, archive), q.url, q.timestamp), 200);
  });
  app.openapi(populationRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await population(ctx(c, census), q.geography, q.year, q.state), 200);
  });
  app.openapi(channelRoute, async (c) => c.json(await channel(ctx(c, youtube), c.req.valid("param").channel_id), 200));
  app.openapi(wolframRoute, async (c) => c.json(await wolframQuery(ctx(c, wolfram), c.req.valid("json").query), 200));
  app.openapi(search, async (c) => c.json(await searchAnswer(c, dataSource(c.req.valid("param").source), c.req.valid("query"), 10), 200));
  app.openapi(get, async (c) => {
    const { source: name, item_id } = c.req.valid("param");
    const source = dataSource(name);
    return c.json({ id: item_id, result: await source.get(ctx(c, source), item_id), source: source.name }, 200);
  });
  app.openapi(multi, async (c) => {
    const body = c.req.valid("json");
    const chosen = body.sources ? body.sources.map(dataSource) : SOURCES;
    const { results, status } = await multiSearch(chosen, c.var.runtime.upstreamCache, body.query, body.limit, body.budget_ms);
    return c.json({ query: body.query, results, status }, 200);
  });
}
