import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOLS } from "../lib/tools/tools.ts";
import type { FakeSource } from "./fakes/data-sources.ts";
import { listen, type Listening } from "./support/listen.ts";
import { useToolGateway, type FakeName } from "./support/tool-gateway.ts";

// Every one of the tools lists, validates and runs against a fake of its
// upstream, over REST (POST /v1/tools/{name}) and over MCP (/v1/mcp, the SDK's own client).

type Case = {
  args: Record<string, unknown>;
  /** What the result must contain (toMatchObject): values the fake sent, as the tool shapes them. */
  result: Record<string, unknown> | unknown[];
  /** The fake that must be asked, and substrings of one request it must get (path and query, decoded). */
  asked: [FakeName, ...string[]];
  /** Arguments the tool's schema refuses, and the field the refusal must name. */
  bad: [Record<string, unknown>, string];
};

const PARIS = "Paris, Île-de-France, France";
const S2_ID = "649def34f8be52c8b66281af98ae884c09aef38b";

const CASES: Record<string, Case> = {
  archive_get_snapshot: {
    args: { url: "https://example.com/", timestamp: "2015" },
    result: {
      url: "https://example.com/",
      timestamp: "20150315120000",
      content: expect.stringContaining("Example Domain"),
    },
    asked: ["archive", "/wayback/available?", "url=https://example.com/", "timestamp=2015"],
    bad: [{ url: "https://example.com/", timestamp: "last year" }, "timestamp"],
  },
  archive_list_captures: {
    args: { url: "example.com", limit: 2 },
    result: [
      { timestamp: "19981201000000", original: "http://example.com/", statuscode: "200" },
      { timestamp: "20200101000000", original: "https://example.com/", length: "1256" },
    ],
    asked: ["archive", "/cdx/search/cdx?url=example.com", "limit=2"],
    bad: [{ url: "example.com", limit: 0 }, "limit"],
  },
  archive_search: {
    args: { query: "example.com", limit: 5 },
    result: {
      source: "archive",
      count: 2,
      results: [
        { published: "19981201000000", url: "https://web.archive.org/web/19981201000000/http://example.com/" },
        { published: "20200101000000" },
      ],
    },
    asked: ["archive", "/cdx/search/cdx?url=example.com", "limit=5"],
    bad: [{ limit: 5 }, "query"],
  },
  arxiv_get_paper: {
    args: { paper_id: "2301.00001" },
    result: { id: "2301.00001v1", title: "Attention Again (extended)", authors: ["Ada Lovelace", "Alan Turing"] },
    asked: ["arxiv", "/api/query?id_list=2301.00001"],
    bad: [{ paper_id: "" }, "paper_id"],
  },
  arxiv_search: {
    args: { query: "attention", limit: 2 },
    result: {
      source: "arxiv",
      count: 2,
      results: [{ title: "Attention Again (extended)" }, { title: "Engines of Thought (extended)" }],
    },
    asked: ["arxiv", "/api/query?search_query=all:attention", "max_results=2"],
    bad: [{ query: "attention", limit: 51 }, "limit"],
  },
  census_get_population: {
    args: { geography: "county", state: "06" },
    result: {
      geography: "county",
      year: 2022,
      count: 1,
      areas: [{ name: "Los Angeles County, California", population: 9936690, fips: "06037" }],
    },
    asked: ["census", "/data/2022/acs/acs5?", "for=county:*", "in=state:06"],
    bad: [{ geography: "planet" }, "geography"],
  },
  census_search: {
    args: { query: "cali" },
    result: {
      count: 1,
      results: [{ id: "06", title: "California", extra: { population: 39356104, year: 2022 } }],
    },
    asked: ["census", "/data/2022/acs/acs5?", "for=state:*"],
    bad: [{ query: "" }, "query"],
  },
  finance_get_crypto_prices: {
    args: { symbols: ["BTC", "eth"] },
    result: { BTC: { price: 97000.5, change_24h: -1.25 }, ETH: { price: 3400.1, change_24h: 2.5 } },
    asked: ["finance", "/api/v3/simple/price?ids=bitcoin,ethereum"],
    bad: [{ symbols: [] }, "symbols"],
  },
  finance_get_daily_prices: {
    args: { symbol: "IBM" },
    result: { symbol: "IBM", days: [{ date: "2026-11-25", open: 230.1, close: 232.4, volume: 41234567 }] },
    asked: ["finance", "/query?function=TIME_SERIES_DAILY&symbol=IBM"],
    bad: [{}, "symbol"],
  },
  finance_get_fx_rates: {
    args: { base: "usd", symbols: ["eur", "GBP"] },
    result: { base: "USD", date: "2026-11-25", rates: { EUR: 0.92, GBP: 0.79 } },
    asked: ["finance", "/latest?from=USD&to=EUR,GBP"],
    bad: [{ base: "DOLLAR" }, "base"],
  },
  github_get_repository: {
    args: { owner: "honojs", repo: "hono" },
    result: { full_name: "honojs/hono", stars: 25000, license: "MIT", language: "TypeScript" },
    asked: ["github", "/repos/honojs/hono"],
    bad: [{ owner: "honojs" }, "repo"],
  },
  github_search_by_language: {
    args: { query: "web", language: "TypeScript", limit: 3 },
    result: [{ id: "honojs/hono", extra: { language: "TypeScript" } }],
    asked: ["github", "/search/repositories?q=web language:TypeScript", "per_page=3"],
    bad: [{ query: "web", language: "Type Script" }, "language"],
  },
  github_search_by_topic: {
    args: { topic: "web" },
    result: [{ id: "honojs/hono", url: "https://github.com/honojs/hono" }],
    asked: ["github", "/search/repositories?q=topic:web"],
    bad: [{ topic: "Web Frameworks" }, "topic"],
  },
  github_search_repositories: {
    args: { query: "web framework" },
    result: {
      source: "github",
      count: 1,
      results: [{ id: "honojs/hono", authors: ["honojs"], extra: { stars: 25000 } }],
    },
    asked: ["github", "/search/repositories?q=web framework", "per_page=10"],
    bad: [{ query: 42 }, "query"],
  },
  nasa_get_apod: {
    args: { date: "2026-11-20" },
    result: {
      title: "Pillars of Creation",
      date: "2026-11-20",
      url: "https://apod.example/pillars.jpg",
      copyright: "NASA",
    },
    asked: ["nasa", "/planetary/apod?", "api_key=DEMO_KEY", "date=2026-11-20"],
    bad: [{ date: "yesterday" }, "date"],
  },
  nasa_get_mars_photos: {
    args: { rover: "spirit", sol: 12 },
    result: {
      rover: "spirit",
      photos: [{ id: 102693, sol: 12, camera: "FHAZ", img_src: "https://mars.example/fhaz.jpg" }],
    },
    asked: ["nasa", "/mars-photos/api/v1/rovers/spirit/photos?", "sol=12"],
    bad: [{ rover: "sojourner" }, "rover"],
  },
  nasa_get_near_earth_objects: {
    args: { start_date: "2026-11-25", end_date: "2026-11-26" },
    result: {
      count: 1,
      objects: [
        { id: "3542519", name: "(2010 PK9)", hazardous: true, diameter_m: 250.5, miss_distance_km: 7451234.12 },
      ],
    },
    asked: ["nasa", "/neo/rest/v1/feed?", "start_date=2026-11-25", "end_date=2026-11-26"],
    bad: [{ start_date: "tomorrow" }, "start_date"],
  },
  nasa_search_images: {
    args: { query: "saturn" },
    result: { count: 1, results: [{ id: "PIA001", title: "Saturn", url: "https://images.example/a.jpg" }] },
    asked: ["nasa", "/search?q=saturn"],
    bad: [{ query: "saturn", limit: "ten" }, "limit"],
  },
  news_get_article: {
    args: { query: "gateways" },
    result: {
      title: "Gateways go mainstream",
      url: "https://news.example/gateways",
      extra: { outlet: "Example Times" },
    },
    asked: ["keyed", "/v2/everything?q=gateways", "pageSize=1"],
    bad: [{}, "query"],
  },
  news_get_headlines: {
    args: { country: "gb", category: "science" },
    result: { total: 1, articles: [{ title: "Top science story in gb", url: "https://news.example/top" }] },
    asked: ["keyed", "/v2/top-headlines?country=gb&category=science"],
    bad: [{ country: "GBR" }, "country"],
  },
  news_search: {
    args: { query: "gateways", from: "2026-11-01", sort_by: "relevancy", limit: 5 },
    result: { total: 1, articles: [{ title: "Gateways go mainstream", authors: ["R. Porter"] }] },
    asked: ["keyed", "/v2/everything?q=gateways", "from=2026-11-01", "sortBy=relevancy", "pageSize=5"],
    bad: [{ query: "gateways", sort_by: "random" }, "sort_by"],
  },
  openlibrary_get_book: {
    args: { book_id: "OL45883W" },
    result: { title: "The Lord of the Rings", key: "/works/OL45883W" },
    asked: ["openlibrary", "/works/OL45883W.json"],
    bad: [{ book_id: "" }, "book_id"],
  },
  openlibrary_get_by_isbn: {
    args: { isbn: "978-0-261-10238-5" },
    result: {
      isbn: "9780261102385",
      title: "The Lord of the Rings",
      authors: ["J.R.R. Tolkien"],
      year: 1991,
      publishers: ["HarperCollins"],
      pages: 1137,
    },
    asked: ["openlibrary", "/isbn/9780261102385.json"],
    bad: [{ isbn: "12345" }, "isbn"],
  },
  openlibrary_search: {
    args: { query: "tolkien" },
    result: {
      count: 1,
      results: [{ id: "OL45883W", title: "The Lord of the Rings", authors: ["J.R.R. Tolkien"], published: "1954" }],
    },
    asked: ["openlibrary", "/search.json?q=tolkien"],
    bad: [{ query: "x".repeat(301) }, "query"],
  },
  semantic_scholar_get_paper: {
    args: { paper_id: S2_ID },
    result: { id: S2_ID, authors: ["Waleed Ammar"], published: "2018", extra: { venue: "NAACL", citations: 400 } },
    asked: ["scholar", `/graph/v1/paper/${S2_ID}?fields=`],
    bad: [{ paper_id: 42 }, "paper_id"],
  },
  semantic_scholar_get_paper_by_doi: {
    args: { doi: "10.18653/v1/N18-3011" },
    result: {
      id: S2_ID,
      title: "Construction of the Literature Graph in Semantic Scholar",
      extra: { doi: "10.18653/v1/N18-3011" },
    },
    asked: ["scholar", "/graph/v1/paper/DOI:10.18653/v1/N18-3011"],
    bad: [{ doi: "N18-3011" }, "doi"],
  },
  semantic_scholar_search: {
    args: { query: "literature graph" },
    result: {
      count: 1,
      results: [{ id: S2_ID, title: "Construction of the Literature Graph in Semantic Scholar" }],
    },
    asked: ["scholar", "/graph/v1/paper/search?query=literature graph"],
    bad: [{}, "query"],
  },
  weather_get_current: {
    args: { location: "Paris" },
    result: { location: PARIS, temperature: 8.4, description: "Overcast", humidity: 81 },
    asked: ["weather", "/v1/forecast?latitude=48.85341&longitude=2.3488&current="],
    bad: [{}, "location"],
  },
  weather_get_forecast: {
    args: { location: "Paris", days: 3 },
    result: {
      location: PARIS,
      forecast: [
        { date: "2026-11-26", description: "Slight rain", high: 10, low: 3 },
        { date: "2026-11-27", description: "Clear sky" },
        { date: "2026-11-28", description: "Overcast" },
      ],
    },
    asked: ["weather", "/v1/forecast?latitude=48.85341", "forecast_days=3"],
    bad: [{ location: "Paris", days: 17 }, "days"],
  },
  weather_search_places: {
    args: { query: "Paris", limit: 5 },
    result: { count: 1, results: [{ id: PARIS, extra: { latitude: 48.85341, longitude: 2.3488 } }] },
    asked: ["weather", "/v1/search?name=Paris&count=5"],
    bad: [{ query: "Paris", limit: 1.5 }, "limit"],
  },
  wikipedia_get_summary: {
    args: { title: "Ada Lovelace" },
    result: {
      title: "Ada Lovelace",
      extract: expect.stringContaining("Countess of Lovelace"),
      thumbnail: "https://upload.example/ada.jpg",
    },
    asked: ["wikipedia", "/api/rest_v1/page/summary/Ada_Lovelace"],
    bad: [{ title: 5 }, "title"],
  },
  wikipedia_lookup: {
    args: { query: "lovelace" },
    result: { title: "Ada Lovelace", url: "https://en.wikipedia.org/wiki/Ada_Lovelace" },
    asked: ["wikipedia", "/w/api.php?", "srsearch=lovelace", "srlimit=1"],
    bad: [{}, "query"],
  },
  wikipedia_search: {
    args: { query: "ada", limit: 2 },
    result: { count: 2, results: [{ id: "Ada Lovelace", extra: { pageid: 974 } }, { id: "Analytical Engine" }] },
    asked: ["wikipedia", "/w/api.php?", "srsearch=ada", "srlimit=2"],
    bad: [{ query: "ada", limit: 0 }, "limit"],
  },
  youtube_get_channel: {
    args: { channel_id: "UC_x5XG1OV2P6uZZ5FSM9Ttw" },
    result: { title: "Google for Developers", subscribers: 2400000, custom_url: "@googledevelopers" },
    asked: ["keyed", "/youtube/v3/channels?", "id=UC_x5XG1OV2P6uZZ5FSM9Ttw"],
    bad: [{ channel_id: "" }, "channel_id"],
  },
  youtube_get_video: {
    args: { video_id: "dQw4w9WgXcQ" },
    result: {
      id: "dQw4w9WgXcQ",
      title: "A talk on gateways",
      channel: "Tech Talks",
      statistics: { viewCount: "12345" },
      url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    },
    asked: ["keyed", "/youtube/v3/videos?", "id=dQw4w9WgXcQ", "key=yt"],
    bad: [{ video_id: ["dQw4w9WgXcQ"] }, "video_id"],
  },
  youtube_search: {
    args: { query: "gateways" },
    result: { count: 1, results: [{ id: "dQw4w9WgXcQ", title: "A talk on gateways", authors: ["Tech Talks"] }] },
    asked: ["keyed", "/youtube/v3/search?", "q=gateways", "key=yt"],
    bad: [{ query: "gateways", limit: -1 }, "limit"],
  },
};

const NAMES = TOOLS.map((t) => t.name);

/** Runs call() and checks the fake was asked, in one request, for every substring of `asked`. */
async function expectAsked<T>(
  fakes: Record<FakeName, FakeSource>,
  [fake, ...parts]: Case["asked"],
  call: () => Promise<T>,
) {
  const before = fakes[fake].hits.length;
  const value = await call();
  const asked = fakes[fake].hits.slice(before).map((hit) => decodeURIComponent(hit.replace(/\+/g, " ")));
  expect(
    asked.some((hit) => parts.every((part) => hit.includes(part))),
    `${fake} asked ${JSON.stringify(asked)}, wanted ${JSON.stringify(parts)}`,
  ).toBe(true);
  return value;
}

/** The refusal names the field as a path ("limit: …", "symbols.0: …"), not merely in an echoed value. */
const namesField = (field: string) => new RegExp(`(^|[\\s;])${field}[.:]`);

const CASE_LIST = Object.entries(CASES);

describe("every tool has a case here", () => {
  it("covers exactly the registry's tools", () => {
    expect(Object.keys(CASES).sort()).toEqual([...NAMES].sort());
    expect(NAMES).toHaveLength(36);
  });
});

describe("all tools over REST: POST /v1/tools/{name}", () => {
  const { t, fakes } = useToolGateway();

  it("GET /v1/tools lists exactly these tools", async () => {
    const body = await (await t.gw.request("/v1/tools")).json();
    expect(body.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(CASE_LIST)("%s runs against its fake, and refuses bad arguments naming the field", async (name, c) => {
    const res = await expectAsked(fakes, c.asked, () => t.post(`/v1/tools/${name}`, c.args));
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.tool).toBe(name);
    expect(body.result).toMatchObject(c.result);

    const [badArgs, field] = c.bad;
    const before = Object.values(fakes).reduce((n, f) => n + f.hits.length, 0);
    const bad = await t.post(`/v1/tools/${name}`, badArgs);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(namesField(field));
    // Refused before any upstream is asked.
    expect(Object.values(fakes).reduce((n, f) => n + f.hits.length, 0)).toBe(before);
  });
});

type Text = { type: "text"; text: string };

describe("all tools over MCP: /v1/mcp with the SDK's client", () => {
  const { t, fakes } = useToolGateway();
  let server: Listening;
  let client: Client;
  beforeAll(async () => {
    server = await listen(t.gw.app.fetch);
    client = new Client({ name: "tools-all-test", version: "1.0.0" });
    const headers = { Authorization: `Bearer ${t.key}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/v1/mcp", server.url), { requestInit: { headers } }),
    );
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it("tools/list lists exactly these tools, each with an object input schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(CASES).sort());
    expect(tools.every((tool) => tool.inputSchema.type === "object")).toBe(true);
  });

  it.each(CASE_LIST)(
    "%s runs against its fake, and answers bad arguments with an error naming the field",
    async (name, c) => {
      const result = await expectAsked(fakes, c.asked, () => client.callTool({ name, arguments: c.args }));
      const text = (result.content as Text[])[0]!.text;
      expect(result.isError, text).toBeFalsy();
      const parsed = JSON.parse(text);
      expect(parsed).toMatchObject(c.result);
      if (!Array.isArray(parsed)) expect(result.structuredContent).toEqual(parsed);

      const [badArgs, field] = c.bad;
      const refused = await client.callTool({ name, arguments: badArgs });
      expect(refused.isError).toBe(true);
      expect((refused.content as Text[])[0]!.text).toMatch(namesField(field));
    },
  );
});
