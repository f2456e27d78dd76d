import { Hono } from "hono";
import { listen } from "../support/listen.ts";

export type FakeSource = {
  url: string;
  hits: string[];
  setDelay(ms: number): void;
  setStatus(status: number | undefined): void;
  /** Answer 200 with a body that is neither the JSON nor the XML the service documents. */
  setGarbage(on: boolean): void;
  /** Requests being answered now, and the most at once since a test last set `peak` to 0. */
  inFlight: { now: number; peak: number };
  close(): Promise<void>;
};

/** Serves app on a free local port behind the hooks every fake upstream shares: hit log, delay, forced status, garbage. */
export async function startFakeServer(
  app: Hono,
  hits: string[] = [],
  state: { delay: number; status?: number; garbage?: boolean } = { delay: 0 },
): Promise<FakeSource> {
  const outer = new Hono();
  const inFlight = { now: 0, peak: 0 };
  outer.use(async (_c, next) => {
    inFlight.peak = Math.max(inFlight.peak, ++inFlight.now);
    try {
      await next();
    } finally {
      inFlight.now -= 1;
    }
  });
  outer.use(async (c, next) => {
    hits.push(`${c.req.path}${new URL(c.req.url).search}`);
    if (state.delay) await new Promise((r) => setTimeout(r, state.delay));
    if (state.status)
      return c.text(
        "failure requested by test",
        state.status as 500,
        state.status === 429 ? { "retry-after": "0" } : {},
      );
    if (state.garbage) return c.text('<<< truncated {"oops', 200);
    await next();
  });
  outer.route("/", app);
  const { url, close } = await listen(outer.fetch);
  return {
    url,
    hits,
    setDelay: (ms) => (state.delay = ms),
    setStatus: (status) => (state.status = status),
    setGarbage: (on) => (state.garbage = on),
    inFlight,
    close,
  };
}

/** MediaWiki's action API search and the REST page summary. */
export function startFakeWikipedia(): Promise<FakeSource> {
  const app = new Hono();
  app.get("/w/api.php", (c) =>
    c.json({
      batchcomplete: "",
      query: {
        searchinfo: { totalhits: 2 },
        search: [
          {
            ns: 0,
            title: "Ada Lovelace",
            pageid: 974,
            snippet: 'English <span class="searchmatch">mathematician</span> &amp; writer',
            timestamp: "2026-11-01T00:00:00Z",
          },
          {
            ns: 0,
            title: "Analytical Engine",
            pageid: 1271,
            snippet: "A proposed mechanical computer",
            timestamp: "2026-10-01T00:00:00Z",
          },
        ].slice(0, Number(c.req.query("srlimit") ?? 10)),
      },
    }),
  );
  app.get("/api/rest_v1/page/summary/:title", (c) => {
    const title = decodeURIComponent(c.req.param("title")).replace(/_/g, " ");
    if (title !== "Ada Lovelace")
      return c.json({ type: "https://mediawiki.org/wiki/HyperSwitch/errors/not_found", title: "Not found." }, 404);
    return c.json({
      type: "standard",
      title,
      description: "English mathematician (1815–1852)",
      extract: "Augusta Ada King, Countess of Lovelace, was an English mathematician.",
      thumbnail: { source: "https://upload.example/ada.jpg", width: 320, height: 400 },
      content_urls: { desktop: { page: "https://en.wikipedia.org/wiki/Ada_Lovelace" } },
    });
  });
  return startFakeServer(app);
}

const atomEntry = (id: string, title: string) => `
  <entry>
    <id>http://arxiv.org/abs/${id}v1</id>
    <updated>2023-01-05T10:00:00Z</updated>
    <published>2023-01-04T18:00:00Z</published>
    <title>${title}
      (extended)</title>
    <summary>  We study attention.
    It works.  </summary>
    <author><name>Ada Lovelace</name></author>
    <author><name>Alan Turing</name></author>
    <link href="http://arxiv.org/abs/${id}v1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/${id}v1" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
  </entry>`;

/** A search's entries: two known papers, then numbered ones, `max_results` in all (arXiv's default 10) as the real API sends. */
const atomSearchEntries = (maxResults: number) =>
  [atomEntry("2301.00001", "Attention Again"), atomEntry("2302.00002", "Engines of Thought")]
    .concat(Array.from({ length: 28 }, (_, i) => atomEntry(`2303.${String(i + 1).padStart(5, "0")}`, `Paper ${i + 3}`)))
    .slice(0, maxResults)
    .join("");

/** arXiv's /api/query, answering Atom 1.0 as its API manual describes. */
export function startFakeArxiv(): Promise<FakeSource> {
  const app = new Hono();
  app.get("/api/query", (c) => {
    const ids = c.req.query("id_list");
    const entries = ids
      ? ids === "2301.00001"
        ? atomEntry("2301.00001", "Attention Again")
        : ""
      : atomSearchEntries(Number(c.req.query("max_results") ?? 10));
    return c.body(
      `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"><title>ArXiv Query</title><opensearch:totalResults>2</opensearch:totalResults>${entries}</feed>`,
      200,
      { "content-type": "application/atom+xml; charset=utf-8" },
    );
  });
  return startFakeServer(app);
}

/** Open Library's search.json, /isbn/{isbn}.json (an edition) and /authors/{id}.json. */
export function startFakeOpenLibrary(): Promise<FakeSource> {
  const app = new Hono();
  app.get("/search.json", (c) =>
    c.json({
      numFound: 1,
      docs: [
        {
          key: "/works/OL45883W",
          title: "The Lord of the Rings",
          author_name: ["J.R.R. Tolkien"],
          first_publish_year: 1954,
          isbn: ["9780261102385"],
          edition_count: 120,
          cover_i: 9255566,
        },
      ],
    }),
  );
  app.get("/isbn/:file", (c) => {
    if (c.req.param("file") !== "9780261102385.json") return c.json({ error: "notfound", key: "/isbn" }, 404);
    return c.json({
      title: "The Lord of the Rings",
      authors: [{ key: "/authors/OL26320A" }],
      publish_date: "July 1991",
      publishers: ["HarperCollins"],
      number_of_pages: 1137,
      works: [{ key: "/works/OL45883W" }],
    });
  });
  app.get("/authors/:file", (c) => c.json({ name: "J.R.R. Tolkien", key: "/authors/OL26320A" }));
  app.get("/works/:file", (c) => c.json({ title: "The Lord of the Rings", key: "/works/OL45883W" }));
  return startFakeServer(app);
}

/** Open-Meteo's geocoding (/v1/search) and forecast (/v1/forecast) APIs on one origin, as the override sends them. */
export function startFakeOpenMeteo(): Promise<FakeSource> {
  const app = new Hono();
  app.get("/v1/search", (c) => {
    if (c.req.query("name")?.toLowerCase() !== "paris") return c.json({ generationtime_ms: 0.1 });
    return c.json({
      results: [
        {
          id: 2988507,
          name: "Paris",
          latitude: 48.85341,
          longitude: 2.3488,
          country: "France",
          admin1: "Île-de-France",
          timezone: "Europe/Paris",
        },
      ],
    });
  });
  app.get("/v1/forecast", (c) => {
    if (c.req.query("current")) {
      return c.json({
        latitude: 48.86,
        longitude: 2.35,
        current_units: { temperature_2m: "°C", wind_speed_10m: "km/h" },
        current: {
          time: "2026-11-26T10:00",
          interval: 900,
          temperature_2m: 8.4,
          apparent_temperature: 6.1,
          relative_humidity_2m: 81,
          precipitation: 0,
          weather_code: 3,
          wind_speed_10m: 12.5,
          wind_direction_10m: 240,
        },
      });
    }
    const days = Number(c.req.query("forecast_days") ?? 7);
    const dates = Array.from({ length: days }, (_, i) => `2026-11-${String(26 + i).padStart(2, "0")}`);
    return c.json({
      daily_units: { temperature_2m_max: "°C" },
      daily: {
        time: dates,
        weather_code: dates.map((_, i) => [61, 0, 3][i % 3]),
        temperature_2m_max: dates.map((_, i) => 10 + i),
        temperature_2m_min: dates.map((_, i) => 3 + i),
        precipitation_sum: dates.map(() => 0.4),
      },
    });
  });
  return startFakeServer(app);
}

/** CoinGecko (/api/v3/simple/price, /api/v3/search), Frankfurter (/latest) and Alpha Vantage (/query) on one origin. */
export function startFakeFinance(): Promise<FakeSource> {
  const app = new Hono();
  app.get("/api/v3/simple/price", (c) => {
    const prices: Record<string, { usd: number; usd_24h_change: number }> = {
      bitcoin: { usd: 97000.5, usd_24h_change: -1.25 },
      ethereum: { usd: 3400.1, usd_24h_change: 2.5 },
    };
    return c.json(
      Object.fromEntries(
        (c.req.query("ids") ?? "")
          .split(",")
          .filter((id) => prices[id])
          .map((id) => [id, prices[id]]),
      ),
    );
  });
  app.get("/api/v3/search", (c) =>
    c.json({ coins: [{ id: "bitcoin", name: "Bitcoin", symbol: "btc", market_cap_rank: 1 }] }),
  );
  app.get("/latest", (c) => {
    const all: Record<string, number> = { EUR: 0.92, GBP: 0.79, JPY: 151.3 };
    const to = c.req.query("to")?.split(",");
    return c.json({
      amount: 1,
      base: c.req.query("from") ?? "EUR",
      date: "2026-11-25",
      rates: to ? Object.fromEntries(to.map((k) => [k, all[k]])) : all,
    });
  });
  app.get("/query", (c) => {
    if (c.req.query("apikey") !== "av-key") return c.json({ "Error Message": "Invalid API call." });
    return c.json({
      "Meta Data": { "2. Symbol": c.req.query("symbol") },
      "Time Series (Daily)": {
        "2026-11-25": {
          "1. open": "230.1",
          "2. high": "233.0",
          "3. low": "229.5",
          "4. close": "232.4",
          "5. volume": "41234567",
        },
      },
    });
  });
  return startFakeServer(app);
}

/** api.nasa.gov (APOD, Mars photos, NeoWs) and the image library's /search on one origin. */
export function startFakeNasa(): Promise<FakeSource> {
  const app = new Hono();
  app.use(async (c, next) => {
    if (c.req.path !== "/search" && c.req.query("api_key") !== "DEMO_KEY")
      return c.json({ error: { code: "API_KEY_INVALID" } }, 403);
    await next();
  });
  app.get("/planetary/apod", (c) =>
    c.json({
      date: c.req.query("date") ?? "2026-11-25",
      title: "Pillars of Creation",
      explanation: "Towers of gas and dust.",
      url: "https://apod.example/pillars.jpg",
      hdurl: "https://apod.example/pillars_hd.jpg",
      media_type: "image",
      copyright: "\nNASA\n",
    }),
  );
  const photo = (sol: number) => ({
    id: 102693,
    sol,
    camera: { id: 20, name: "FHAZ", full_name: "Front Hazard Avoidance Camera" },
    img_src: "https://mars.example/fhaz.jpg",
    earth_date: "2015-05-30",
    rover: { name: "Curiosity" },
  });
  app.get("/mars-photos/api/v1/rovers/:rover/latest_photos", (c) => c.json({ latest_photos: [photo(4100)] }));
  app.get("/mars-photos/api/v1/rovers/:rover/photos", (c) => c.json({ photos: [photo(Number(c.req.query("sol")))] }));
  app.get("/neo/rest/v1/feed", (c) =>
    c.json({
      element_count: 1,
      near_earth_objects: {
        "2026-11-25": [
          {
            id: "3542519",
            name: "(2010 PK9)",
            is_potentially_hazardous_asteroid: true,
            estimated_diameter: { meters: { estimated_diameter_max: 250.5 } },
            close_approach_data: [{ close_approach_date: "2026-11-25", miss_distance: { kilometers: "7451234.12" } }],
          },
        ],
      },
    }),
  );
  app.get("/search", (c) =>
    c.json({
      collection: {
        items: [
          {
            href: "https://images.example/a.json",
            data: [
              {
                nasa_id: "PIA001",
                title: "Saturn",
                description: "Rings",
                date_created: "2004-07-01T00:00:00Z",
                media_type: "image",
              },
            ],
            links: [{ href: "https://images.example/a.jpg" }],
          },
        ],
      },
    }),
  );
  return startFakeServer(app);
}

/** GitHub REST: /search/repositories and /repos/{owner}/{repo}. */
export function startFakeGithub(): Promise<FakeSource> {
  const app = new Hono();
  const repo = {
    full_name: "honojs/hono",
    html_url: "https://github.com/honojs/hono",
    description: "Web framework built on Web Standards",
    stargazers_count: 25000,
    forks_count: 700,
    open_issues_count: 300,
    language: "TypeScript",
    license: { spdx_id: "MIT" },
    topics: ["web"],
    default_branch: "main",
    pushed_at: "2026-11-20T00:00:00Z",
    created_at: "2021-12-14T00:00:00Z",
    owner: { login: "honojs" },
    archived: false,
  };
  app.get("/search/repositories", (c) => c.json({ total_count: 1, items: [repo] }));
  app.get("/repos/:owner/:repo", (c) =>
    c.req.param("owner") === "honojs" && c.req.param("repo") === "hono"
      ? c.json(repo)
      : c.json({ message: "Not Found" }, 404),
  );
  // The token owner's account: what a path-traversal through a repository id would read.
  app.get("/user", (c) => c.json({ login: "operator", email: "ops@example.com", plan: { name: "pro" } }));
  return startFakeServer(app);
}

/** NCBI E-utilities: esearch and esummary (JSON), efetch (PubMed XML). */
export function startFakePubmed(): Promise<FakeSource> {
  const app = new Hono();
  app.get("/entrez/eutils/esearch.fcgi", (c) =>
    c.json({ header: { type: "esearch" }, esearchresult: { count: "1", idlist: ["31452104"] } }),
  );
  app.get("/entrez/eutils/esummary.fcgi", (c) =>
    c.json({
      result: {
        uids: ["31452104"],
        "31452104": {
          uid: "31452104",
          title: "Aphasia therapy outcomes.",
          pubdate: "2019 Aug",
          source: "Brain",
          authors: [{ name: "Smith J" }],
          elocationid: "doi: 10.1000/xyz",
        },
      },
    }),
  );
  app.get("/entrez/eutils/efetch.fcgi", (c) => {
    if (c.req.query("id") !== "31452104")
      return c.body('<?xml version="1.0"?><PubmedArticleSet></PubmedArticleSet>', 200, { "content-type": "text/xml" });
    return c.body(
      `<?xml version="1.0"?><PubmedArticleSet><PubmedArticle><MedlineCitation Status="MEDLINE"><PMID Version="1">31452104</PMID><Article><Journal><JournalIssue><PubDate><Year>2019</Year><Month>Aug</Month></PubDate></JournalIssue><Title>Brain</Title></Journal><ArticleTitle>Aphasia therapy outcomes.</ArticleTitle><Abstract><AbstractText Label="BACKGROUND">Aphasia affects speech.</AbstractText><AbstractText Label="RESULTS">Therapy helped.</AbstractText></Abstract><AuthorList><Author><LastName>Smith</LastName><ForeName>Jane</ForeName></Author><Author><LastName>Doe</LastName><ForeName>John</ForeName></Author></AuthorList></Article><MeshHeadingList><MeshHeading><DescriptorName UI="D001037">Aphasia</DescriptorName></MeshHeading></MeshHeadingList></MedlineCitation><PubmedData><ArticleIdList><ArticleId IdType="pubmed">31452104</ArticleId><ArticleId IdType="doi">10.1000/xyz</ArticleId></ArticleIdList></PubmedData></PubmedArticle></PubmedArticleSet>`,
      200,
      { "content-type": "text/xml" },
    );
  });
  return startFakeServer(app);
}

/** archive.org's /wayback/available and web.archive.org's /web/{ts}id_/{url} and /cdx/search/cdx on one origin. */
export function startFakeArchive(): Promise<FakeSource> {
  const app = new Hono();
  app.get("/wayback/available", (c) => {
    const url = c.req.query("url") ?? "";
    if (!url.includes("example.com")) return c.json({ url, archived_snapshots: {} });
    return c.json({
      url,
      archived_snapshots: {
        closest: {
          status: "200",
          available: true,
          url: `http://web.archive.org/web/20200101000000/${url}`,
          timestamp: c.req.query("timestamp")?.startsWith("2015") ? "20150315120000" : "20200101000000",
        },
      },
    });
  });
  app.get("/web/*", (c) => c.html("<html><body><h1>Example Domain</h1></body></html>"));
  // GET /save/{url}: answers once the capture exists, naming it in Content-Location.
  app.get("/save/*", (c) => {
    const target = c.req.path.slice("/save/".length);
    if (target.includes("refuse")) return c.text("Sorry, this URL cannot be archived.", 403);
    return c.html("<html>saved</html>", 200, { "content-location": `/web/20261126000000/${target}` });
  });
  app.get("/cdx/search/cdx", (c) =>
    c.json([
      ["timestamp", "original", "mimetype", "statuscode", "length"],
      ["19981201000000", "http://example.com/", "text/html", "200", "1000"],
      ["20200101000000", "https://example.com/", "text/html", "200", "1256"],
    ]),
  );
  return startFakeServer(app);
}

/** Semantic Scholar's Graph API: /graph/v1/paper/search and /graph/v1/paper/{id}. */
export function startFakeSemanticScholar(): Promise<FakeSource> {
  const app = new Hono();
  const paper = {
    paperId: "649def34f8be52c8b66281af98ae884c09aef38b",
    title: "Construction of the Literature Graph in Semantic Scholar",
    url: "https://www.semanticscholar.org/paper/649def34",
    abstract: "We describe a deployed scalable system.",
    authors: [{ authorId: "1741101", name: "Waleed Ammar" }],
    year: 2018,
    venue: "NAACL",
    citationCount: 400,
    externalIds: { DOI: "10.18653/v1/N18-3011" },
    openAccessPdf: null,
  };
  app.get("/graph/v1/paper/search", (c) => c.json({ total: 1, offset: 0, data: [paper] }));
  app.get("/graph/v1/paper/:id", (c) =>
    ["DOI:10.18653/v1/N18-3011", paper.paperId].includes(decodeURIComponent(c.req.param("id")))
      ? c.json(paper)
      : c.json({ error: "Paper not found" }, 404),
  );
  return startFakeServer(app);
}

/** The Census Data API: /data/{year}/acs/acs5 answering a JSON table, for each geography the gateway asks for. */
export function startFakeCensus(): Promise<FakeSource> {
  const app = new Hono();
  app.get("/data/:year/acs/acs5", (c) => {
    const forParam = c.req.query("for") ?? "";
    if (forParam.startsWith("state"))
      return c.json([
        ["NAME", "B01003_001E", "state"],
        ["California", "39356104", "06"],
        ["Alabama", "5028092", "01"],
      ]);
    if (forParam.startsWith("county"))
      return c.json([
        ["NAME", "B01003_001E", "state", "county"],
        ["Los Angeles County, California", "9936690", "06", "037"],
      ]);
    // Tracts are asked for within a state, as the real API requires.
    if (forParam.startsWith("tract") && c.req.query("in")?.startsWith("state:"))
      return c.json([
        ["NAME", "B01003_001E", "state", "county", "tract"],
        ["Census Tract 1011.10; Los Angeles County; California", "3853", "06", "037", "101110"],
      ]);
    if (forParam.startsWith("zip code tabulation area"))
      return c.json([
        ["NAME", "B01003_001E", "zip code tabulation area"],
        ["ZCTA5 90210", "19627", "90210"],
      ]);
    return c.json({ error: "unknown geography" }, 400);
  });
  return startFakeServer(app);
}

/** The six keyed sources on one fake each would be six servers; one origin serving all their paths is enough for tests. */
export function startFakeKeyedSources(): Promise<FakeSource> {
  const app = new Hono();
  // YouTube Data API v3
  app.get("/youtube/v3/search", (c) =>
    c.req.query("key") !== "yt"
      ? c.json({ error: { code: 400, message: "API key not valid." } }, 400)
      : c.json({
          items: [
            {
              id: { kind: "youtube#video", videoId: "dQw4w9WgXcQ" },
              snippet: {
                title: "A talk on gateways",
                description: "Gateways explained",
                channelTitle: "Tech Talks",
                publishedAt: "2026-01-01T00:00:00Z",
              },
            },
          ],
        }),
  );
  // videos.list: a videoListResponse; an unknown id is an empty items list, not a 404.
  app.get("/youtube/v3/videos", (c) =>
    c.req.query("key") !== "yt"
      ? c.json({ error: { code: 400, message: "API key not valid." } }, 400)
      : c.json({
          kind: "youtube#videoListResponse",
          items:
            c.req.query("id") === "dQw4w9WgXcQ"
              ? [
                  {
                    kind: "youtube#video",
                    id: "dQw4w9WgXcQ",
                    snippet: {
                      publishedAt: "2026-01-01T00:00:00Z",
                      channelId: "UC_x5XG1OV2P6uZZ5FSM9Ttw",
                      title: "A talk on gateways",
                      description: "Gateways explained",
                      channelTitle: "Tech Talks",
                    },
                    statistics: { viewCount: "12345", likeCount: "678", favoriteCount: "0", commentCount: "90" },
                  },
                ]
              : [],
          pageInfo: { totalResults: c.req.query("id") === "dQw4w9WgXcQ" ? 1 : 0, resultsPerPage: 1 },
        }),
  );
  app.get("/youtube/v3/channels", (c) =>
    c.req.query("id") === "UC_x5XG1OV2P6uZZ5FSM9Ttw"
      ? c.json({
          items: [
            {
              id: "UC_x5XG1OV2P6uZZ5FSM9Ttw",
              snippet: {
                title: "Google for Developers",
                description: "Dev channel",
                customUrl: "@googledevelopers",
                publishedAt: "2007-08-23T00:34:43Z",
              },
              statistics: { subscriberCount: "2400000", videoCount: "6000", viewCount: "300000000" },
            },
          ],
        })
      : c.json({ items: [] }),
  );
  // Wolfram|Alpha Full Results API v2 (JSON)
  app.get("/v2/query", (c) =>
    c.json({
      queryresult: {
        success: true,
        error: false,
        pods: [
          { title: "Input interpretation", id: "Input", subpods: [{ plaintext: "integrate x^2 dx" }] },
          {
            title: "Indefinite integral",
            id: "IndefiniteIntegral",
            primary: true,
            subpods: [{ plaintext: "∫x^2 dx = x^3/3 + constant" }],
          },
        ],
      },
    }),
  );
  // NewsAPI
  app.get("/v2/everything", (c) =>
    c.req.header("x-api-key") !== "na"
      ? c.json({ status: "error", code: "apiKeyInvalid", message: "Your API key is invalid." }, 401)
      : c.json({
          status: "ok",
          totalResults: 1,
          articles: [
            {
              source: { id: null, name: "Example Times" },
              author: "R. Porter",
              title: "Gateways go mainstream",
              description: "A look at API gateways.",
              url: "https://news.example/gateways",
              urlToImage: null,
              publishedAt: "2026-11-20T08:00:00Z",
            },
          ],
        }),
  );
  app.get("/v2/top-headlines", (c) =>
    c.json({
      status: "ok",
      totalResults: 1,
      articles: [
        {
          source: { name: "Wire" },
          title: `Top ${c.req.query("category") ?? "general"} story in ${c.req.query("country")}`,
          url: "https://news.example/top",
          publishedAt: "2026-11-25T08:00:00Z",
        },
      ],
    }),
  );
  // OpenFEC
  app.get("/v1/candidates/search/", (c) =>
    c.json({
      results: [
        {
          candidate_id: "P80001571",
          name: "DOE, JANE",
          party_full: "INDEPENDENT",
          office_full: "President",
          state: "US",
          election_years: [2024],
        },
      ],
      pagination: { count: 1 },
    }),
  );
  app.get("/v1/candidate/:id/", (c) =>
    c.json({ results: c.req.param("id") === "P80001571" ? [{ candidate_id: "P80001571", name: "DOE, JANE" }] : [] }),
  );
  // MyAnimeList API v2
  app.get("/v2/anime", (c) =>
    c.req.header("x-mal-client-id") !== "mal"
      ? c.json({ error: "invalid_client" }, 401)
      : c.json({
          data: [
            {
              node: {
                id: 5114,
                title: "Fullmetal Alchemist: Brotherhood",
                synopsis: "Two brothers…",
                mean: 9.1,
                start_date: "2009-04-05",
                media_type: "tv",
                num_episodes: 64,
              },
            },
          ],
        }),
  );
  // CourtListener REST v4
  app.get("/api/rest/v4/search/", (c) =>
    c.json({
      count: 1,
      results: [
        {
          caseName: "Marbury v. Madison",
          court: "Supreme Court of the United States",
          dateFiled: "1803-02-24",
          absolute_url: "/opinion/84759/marbury-v-madison/",
          cluster_id: 84759,
          docketNumber: "",
          citation: ["5 U.S. 137"],
          opinions: [
            { snippet: "It is emphatically the province and duty of the judicial department to say what the law is." },
          ],
        },
      ],
    }),
  );
  return startFakeServer(app);
}

/** Serper's POST /search (Google results as JSON). */
export function startFakeSerper(): Promise<FakeSource> {
  const app = new Hono();
  app.post("/search", async (c) => {
    if (c.req.header("x-api-key") !== "serper") return c.json({ message: "Unauthorized." }, 403);
    const body = await c.req.json();
    return c.json({
      searchParameters: body,
      organic: Array.from({ length: Math.min(body.num ?? 10, 3) }, (_, i) => ({
        title: `Result ${i + 1} for ${body.q}`,
        link: `https://site${i}.example/`,
        snippet: `Snippet ${i + 1}`,
        position: i + 1,
      })),
    });
  });
  return startFakeServer(app);
}
