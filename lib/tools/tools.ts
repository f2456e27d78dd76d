import { z } from "@hono/zod-openapi";
import { GatewayError } from "../errors.ts";
import { cachedSearch, contextFor, type DataSource } from "../data-sources/source.ts";
import { archive, CAPTURE_TARGET, captures, HTTP_URL, snapshot, TIMESTAMP } from "../data-sources/archive/index.ts";
import { ARXIV_ID, arxiv } from "../data-sources/arxiv/index.ts";
import { census, GEOGRAPHIES, population, STATE_FIPS, type Geography } from "../data-sources/census/index.ts";
import { CURRENCY, cryptoPrices, dailyPrices, finance, fxRates } from "../data-sources/finance/index.ts";
import { github, GITHUB_NAME, repository } from "../data-sources/github/index.ts";
import { apod, marsPhotos, nasa, nearEarthObjects, ROVERS } from "../data-sources/nasa/index.ts";
import { headlines, news, newsSearch } from "../data-sources/news/index.ts";
import { bookByIsbn, openlibrary, OPENLIBRARY_ID } from "../data-sources/openlibrary/index.ts";
import { ISBN_SHAPE, normaliseIsbn } from "../data-sources/openlibrary/isbn.ts";
import { DOI, PAPER_ID, semanticScholar } from "../data-sources/semantic_scholar/index.ts";
import { currentWeather, weather, weatherForecast } from "../data-sources/weather/index.ts";
import { wikipedia, wikipediaSummary } from "../data-sources/wikipedia/index.ts";
import { CHANNEL_ID, channel, VIDEO_ID, youtube } from "../data-sources/youtube/index.ts";
import { defineTool, type Tool, type ToolContext } from "./tool.ts";

// Thin wrappers over the data-source adapters in lib/data-sources: every tool calls an adapter
// function the /v1/data routes already call, through the same per-runtime client (and, for searches,
// the same result cache), so tools add no upstream calls of their own.
//
// Each input states every rule its adapter checks (pattern, format, enum, bounds), with the adapter's
// own constant where it has one: the JSON Schema that GET /v1/tools/, MCP and the agents get from it
// then admits only arguments the adapter accepts, and a refusal is this schema's 400 naming the field.
// The adapters keep their checks for the /v1/data routes, which call them too.

// Not only whitespace: the adapters trim what they are given, and blank text names nothing. The
// pattern is unanchored on purpose: one non-space character anywhere is enough.
const NOT_BLANK = /\S/;
const text = (max: number) => z.string().min(1).max(max).regex(NOT_BLANK, "must not be blank");
const query = text(300).describe("Search terms");
const limit = z.number().int().min(1).max(50).default(10).describe("At most this many results");
const date = (description: string) => z.iso.date().describe(description);
// NewsAPI's from/to: a date, or a date and time (UTC with Z, or without an offset).
const newsTime = (description: string) =>
  z.union([z.iso.date(), z.iso.datetime({ local: true }).max(30)]).describe(`${description}: YYYY-MM-DD[Thh:mm:ss]`);
// The categories NewsAPI's top-headlines endpoint knows.
const NEWS_CATEGORIES = ["business", "entertainment", "general", "health", "science", "sports", "technology"] as const;
const isbn = z
  .string()
  .regex(ISBN_SHAPE, "must be an ISBN-10 or ISBN-13")
  .refine((value) => normaliseIsbn(value) !== null, "the check digit does not match")
  // No pattern can check a check digit: "isbn" names that rule (a custom format; the description says it).
  .meta({ format: "isbn" })
  .describe("ISBN-10 or ISBN-13 with its check digit, digits maybe split by single hyphens or spaces");

/**
 * `field` is required when `key` is `value`. zod cannot say so in JSON Schema, so the rule is both a
 * refinement (the 400 names the field) and the if/then that GET /v1/tools/ and MCP publish.
 */
function requiredWhen<I extends z.ZodObject>(input: I, key: string, value: string, field: string): I {
  return input
    .refine((args) => args[key] !== value || args[field] !== undefined, {
      path: [field],
      message: `required when ${key} is ${value}`,
    })
    .meta({ if: { properties: { [key]: { const: value } }, required: [key] }, then: { required: [field] } });
}

const captureTarget = z
  .string()
  .max(2000)
  .regex(CAPTURE_TARGET, "must be an absolute http(s) URL or a bare host")
  .describe("An absolute http(s) URL, or a bare host such as example.com");

const ctxOf = (source: Pick<DataSource, "name" | "upstream">, ctx: ToolContext) =>
  contextFor(source, ctx.cache, ctx.trace);

const searchTool = (source: DataSource, name: string, description: string, terms: z.ZodString = query) =>
  defineTool({
    name,
    module: source.name,
    description,
    input: z.object({ query: terms, limit }),
    run: async ({ query, limit }, ctx) => {
      const results = await cachedSearch(source, ctx.cache, query, limit, ctx.trace);
      return { source: source.name, query, count: results.length, results };
    },
  });

const getTool = (source: DataSource, name: string, description: string, idName: string, idInput: z.ZodType<string>) =>
  defineTool({
    name,
    module: source.name,
    description,
    input: z.object({ [idName]: idInput }),
    run: (args, ctx) => source.get(ctxOf(source, ctx), (args as Record<string, string>)[idName]!),
  });

export const TOOLS: readonly Tool[] = [
  // archive (Wayback Machine)
  searchTool(archive, "archive_search", "Search the Wayback Machine's captures of a URL or host", captureTarget),
  defineTool({
    name: "archive_get_snapshot",
    module: "archive",
    description: "The archived page closest to a timestamp (default: the latest capture)",
    input: z.object({
      url: z
        .string()
        .max(2000)
        .regex(HTTP_URL, "must be an absolute http(s) URL")
        .describe("The page's absolute http(s) URL"),
      timestamp: z.string().regex(TIMESTAMP).optional().describe("YYYYMMDDhhmmss, or any prefix of it"),
    }),
    run: ({ url, timestamp }, ctx) => snapshot(ctxOf(archive, ctx), url, timestamp),
  }),
  defineTool({
    name: "archive_list_captures",
    module: "archive",
    description: "The captures of a URL (or a bare host) in the Wayback Machine, oldest first",
    input: z.object({ url: captureTarget, limit }),
    run: ({ url, limit }, ctx) => captures(ctxOf(archive, ctx), url, limit),
  }),
  // arxiv
  searchTool(arxiv, "arxiv_search", "Search arXiv preprints"),
  getTool(
    arxiv,
    "arxiv_get_paper",
    "One arXiv preprint by its id",
    "paper_id",
    z
      .string()
      .max(100)
      .regex(ARXIV_ID, "must be an arXiv id")
      .describe("arXiv id, e.g. 2301.00001, 2301.00001v2 or hep-th/9901001"),
  ),
  // census
  searchTool(census, "census_search", "Search US Census places (states) by name"),
  defineTool({
    name: "census_get_population",
    module: "census",
    description: "Total population (ACS 5-year) for every area of one kind",
    input: requiredWhen(
      z.object({
        geography: z.enum(Object.keys(GEOGRAPHIES) as [Geography, ...Geography[]]).default("state"),
        year: z.number().int().min(2009).max(2100).default(2022),
        state: z.string().regex(STATE_FIPS).optional().describe("Two-digit state FIPS code (needed for tracts)"),
      }),
      "geography",
      "tract",
      "state",
    ),
    run: ({ geography, year, state }, ctx) => population(ctxOf(census, ctx), geography, year, state),
  }),
  // finance
  defineTool({
    name: "finance_get_crypto_prices",
    module: "finance",
    description: "Current USD prices and 24h change of cryptocurrencies",
    input: z.object({ symbols: z.array(text(20)).min(1).max(25).describe("e.g. BTC, ETH") }),
    run: ({ symbols }, ctx) => cryptoPrices(ctxOf(finance, ctx), symbols),
  }),
  defineTool({
    name: "finance_get_fx_rates",
    module: "finance",
    description: "Latest exchange rates from a base currency",
    input: z.object({
      base: z.string().regex(CURRENCY).default("USD"),
      symbols: z.array(z.string().regex(CURRENCY)).max(50).optional(),
    }),
    run: ({ base, symbols }, ctx) => fxRates(ctxOf(finance, ctx), base, symbols),
  }),
  defineTool({
    name: "finance_get_daily_prices",
    module: "finance",
    description: "Daily prices of a stock symbol (needs ALPHAVANTAGE_API_KEY)",
    input: z.object({ symbol: text(20).describe("Ticker, e.g. IBM") }),
    run: ({ symbol }, ctx) => dailyPrices(ctxOf(finance, ctx), symbol),
  }),
  // github
  searchTool(github, "github_search_repositories", "Search GitHub repositories (GitHub search syntax)"),
  defineTool({
    name: "github_search_by_language",
    module: "github",
    description: "Search GitHub repositories written in one language (the search endpoint's language: qualifier)",
    input: z.object({ query, language: z.string().regex(/^[\w+#.-]{1,40}$/), limit }),
    run: ({ query, language, limit }, ctx) =>
      cachedSearch(github, ctx.cache, `${query} language:${language}`, limit, ctx.trace),
  }),
  defineTool({
    name: "github_search_by_topic",
    module: "github",
    description: "Search GitHub repositories tagged with a topic (the search endpoint's topic: qualifier)",
    input: z.object({ topic: z.string().regex(/^[a-z0-9-]{1,50}$/), limit }),
    run: ({ topic, limit }, ctx) => cachedSearch(github, ctx.cache, `topic:${topic}`, limit, ctx.trace),
  }),
  defineTool({
    name: "github_get_repository",
    module: "github",
    description: "One GitHub repository's details",
    input: z.object({
      owner: z.string().regex(GITHUB_NAME, "must be a GitHub name").describe("The owner's login, e.g. honojs"),
      repo: z.string().regex(GITHUB_NAME, "must be a GitHub name").describe("The repository's name, e.g. hono"),
    }),
    run: ({ owner, repo }, ctx) => repository(ctxOf(github, ctx), owner, repo),
  }),
  // nasa
  searchTool(nasa, "nasa_search_images", "Search NASA's image and video library"),
  defineTool({
    name: "nasa_get_apod",
    module: "nasa",
    description: "NASA's Astronomy Picture of the Day",
    input: z.object({ date: date("YYYY-MM-DD; default today").optional() }),
    run: ({ date }, ctx) => apod(ctxOf(nasa, ctx), date),
  }),
  defineTool({
    name: "nasa_get_mars_photos",
    module: "nasa",
    description: "Photos taken by a Mars rover on one sol",
    input: z.object({
      rover: z.enum(ROVERS).default("curiosity"),
      sol: z.number().int().min(0).max(10_000).optional(),
      camera: z.string().max(20).optional(),
    }),
    run: ({ rover, sol, camera }, ctx) => marsPhotos(ctxOf(nasa, ctx), rover, sol, camera),
  }),
  defineTool({
    name: "nasa_get_near_earth_objects",
    module: "nasa",
    description: "Asteroids passing near Earth between two dates (at most 7 days apart)",
    input: z.object({
      start_date: date("YYYY-MM-DD; default today").optional(),
      end_date: date("YYYY-MM-DD; default 7 days after start_date").optional(),
    }),
    run: ({ start_date, end_date }, ctx) => nearEarthObjects(ctxOf(nasa, ctx), start_date, end_date),
  }),
  // news
  defineTool({
    name: "news_search",
    module: "news",
    description: "Search news articles (needs NEWSAPI_KEY)",
    input: z.object({
      query,
      from: newsTime("The oldest articles").optional(),
      to: newsTime("The newest articles").optional(),
      sort_by: z.enum(["publishedAt", "relevancy", "popularity"]).optional(),
      limit,
    }),
    run: ({ query, from, to, sort_by, limit }, ctx) =>
      newsSearch(ctxOf(news, ctx), query, { from, to, sortBy: sort_by, pageSize: limit }),
  }),
  defineTool({
    name: "news_get_headlines",
    module: "news",
    description: "Top headlines by country and category",
    input: z.object({
      country: z
        .string()
        .regex(/^[a-z]{2}$/)
        .optional(),
      category: z.enum(NEWS_CATEGORIES).optional(),
      query: query.optional(),
      limit,
    }),
    run: ({ country, category, query, limit }, ctx) =>
      headlines(ctxOf(news, ctx), { country, category, q: query, pageSize: limit }),
  }),
  getTool(news, "news_get_article", "The newest article matching a phrase", "query", query),
  // openlibrary
  searchTool(openlibrary, "openlibrary_search", "Search Open Library books"),
  // The adapter takes an ISBN or an Open Library id; a title is refused (400), so the description must not offer one.
  getTool(
    openlibrary,
    "openlibrary_get_book",
    "One book by ISBN, or by Open Library work (OL…W) or edition (OL…M) id",
    "book_id",
    z
      .union([isbn, z.string().max(30).regex(OPENLIBRARY_ID)])
      .describe("ISBN-10/13 (check digit included), or an Open Library id such as OL45883W"),
  ),
  defineTool({
    name: "openlibrary_get_by_isbn",
    module: "openlibrary",
    description: "One book by its ISBN-10 or ISBN-13",
    input: z.object({ isbn }),
    run: ({ isbn }, ctx) => bookByIsbn(ctxOf(openlibrary, ctx), isbn),
  }),
  // semantic_scholar
  searchTool(semanticScholar, "semantic_scholar_search", "Search Semantic Scholar papers"),
  getTool(
    semanticScholar,
    "semantic_scholar_get_paper",
    "One paper by Semantic Scholar id, DOI:…, arXiv:… or PMID:…",
    "paper_id",
    z
      .string()
      .max(300)
      .regex(PAPER_ID, "must be a paper id the description lists")
      .describe(
        "A 40-hex Semantic Scholar id, CorpusId:…, DOI:… (or a bare DOI), ARXIV:…, PMID:…, PMCID:…, MAG:…, ACL:… or URL:…",
      ),
  ),
  defineTool({
    name: "semantic_scholar_get_paper_by_doi",
    module: "semantic_scholar",
    description: "One paper by its DOI",
    input: z.object({
      doi: z.string().max(300).regex(DOI, "must be a DOI").describe("e.g. 10.1145/3292500.3330701"),
    }),
    run: ({ doi }, ctx) => semanticScholar.get(ctxOf(semanticScholar, ctx), doi),
  }),
  // weather
  searchTool(weather, "weather_search_places", "Find places (and their coordinates) by name"),
  defineTool({
    name: "weather_get_current",
    module: "weather",
    description: "Current weather at a place",
    input: z.object({ location: text(200).describe("A place name, e.g. Paris") }),
    run: ({ location }, ctx) => currentWeather(ctxOf(weather, ctx), location),
  }),
  defineTool({
    name: "weather_get_forecast",
    module: "weather",
    description: "Daily forecast at a place",
    input: z.object({
      location: text(200).describe("A place name, e.g. Paris"),
      days: z.number().int().min(1).max(16).default(7),
    }),
    run: ({ location, days }, ctx) => weatherForecast(ctxOf(weather, ctx), location, days),
  }),
  // wikipedia
  searchTool(wikipedia, "wikipedia_search", "Full-text search of English Wikipedia"),
  defineTool({
    name: "wikipedia_get_summary",
    module: "wikipedia",
    description: "The summary of one Wikipedia page",
    input: z.object({
      // A title of only dots and spaces names no page, and "." or ".." in the upstream path is refused.
      title: z
        .string()
        .max(300)
        .regex(/[^\s.]/, "must name a page")
        .describe("The page's title, e.g. Ada Lovelace"),
    }),
    run: ({ title }, ctx) => wikipediaSummary(ctxOf(wikipedia, ctx), title),
  }),
  defineTool({
    name: "wikipedia_lookup",
    module: "wikipedia",
    description: "The summary of the best search hit for a phrase (search, then summary)",
    input: z.object({ query }),
    run: async ({ query }, ctx) => {
      const [top] = await cachedSearch(wikipedia, ctx.cache, query, 1, ctx.trace);
      if (!top) throw new GatewayError(404, `wikipedia has no page matching '${query}'`);
      return wikipediaSummary(ctxOf(wikipedia, ctx), top.id);
    },
  }),
  // youtube
  searchTool(youtube, "youtube_search", "Search YouTube videos (needs YOUTUBE_API_KEY)"),
  getTool(
    youtube,
    "youtube_get_video",
    "One YouTube video's details",
    "video_id",
    z.string().regex(VIDEO_ID).describe("The 11-character video id, e.g. dQw4w9WgXcQ"),
  ),
  defineTool({
    name: "youtube_get_channel",
    module: "youtube",
    description: "One YouTube channel's details",
    input: z.object({ channel_id: z.string().regex(CHANNEL_ID).describe("UC and 22 more characters") }),
    run: ({ channel_id }, ctx) => channel(ctxOf(youtube, ctx), channel_id),
  }),
].sort((a, b) => a.name.localeCompare(b.name));

export const toolByName = (name: string): Tool | undefined => TOOLS.find((t) => t.name === name);
