import { describe, expect, it } from "vitest";
import {
  startFakeArchive,
  startFakeArxiv,
  startFakeCensus,
  startFakeFinance,
  startFakeGithub,
  startFakeKeyedSources,
  startFakeNasa,
  startFakeOpenLibrary,
  startFakeOpenMeteo,
  startFakePubmed,
  startFakeSemanticScholar,
  startFakeWikipedia,
  type FakeSource,
} from "./fakes/data-sources.ts";
import { useGateway } from "./support/use-gateway.ts";

// The count asked for (Form A `limit`, Form B `max_results`) is the count
// sent upstream and the most returned, on the generic and the source-specific search routes.
const FAKES = {
  arxiv: startFakeArxiv,
  semantic_scholar: startFakeSemanticScholar,
  pubmed: startFakePubmed,
  wikipedia: startFakeWikipedia,
  github: startFakeGithub,
  nasa: startFakeNasa,
  census: startFakeCensus,
  openlibrary: startFakeOpenLibrary,
  archive: startFakeArchive,
  weather: startFakeOpenMeteo,
  finance: startFakeFinance,
  keyed: startFakeKeyedSources,
};
type FakeName = keyof typeof FAKES;
const KEYED = ["youtube", "wolfram", "news", "fec", "mal", "judiciary"];

/** Each source: the fake serving it, the search terms its fake answers, and the upstream's count parameter (null: it takes none). */
const SOURCES: Array<{ source: string; fake: FakeName; terms: string; param: string | null }> = [
  { source: "arxiv", fake: "arxiv", terms: "neural", param: "max_results" },
  { source: "semantic_scholar", fake: "semantic_scholar", terms: "graph", param: "limit" },
  { source: "pubmed", fake: "pubmed", terms: "aphasia", param: "retmax" },
  { source: "wikipedia", fake: "wikipedia", terms: "water", param: "srlimit" },
  { source: "github", fake: "github", terms: "hono", param: "per_page" },
  { source: "nasa", fake: "nasa", terms: "saturn", param: "page_size" },
  { source: "census", fake: "census", terms: "a", param: null },
  { source: "openlibrary", fake: "openlibrary", terms: "tolkien", param: "limit" },
  { source: "archive", fake: "archive", terms: "example.com", param: "limit" },
  { source: "youtube", fake: "keyed", terms: "gateways", param: "maxResults" },
  { source: "wolfram", fake: "keyed", terms: "integrate", param: null },
  { source: "news", fake: "keyed", terms: "gateways", param: "pageSize" },
  { source: "weather", fake: "weather", terms: "paris", param: "count" },
  { source: "finance", fake: "finance", terms: "bitcoin", param: null },
  { source: "fec", fake: "keyed", terms: "doe", param: "per_page" },
  { source: "mal", fake: "keyed", terms: "fullmetal", param: "limit" },
  { source: "judiciary", fake: "keyed", terms: "marbury", param: null },
];

describe("/v1/data search: the count asked for, in both forms, on every source", () => {
  const fakes = {} as Record<FakeName, FakeSource>;
  const t = useGateway({
    fakes: async () => {
      const names = Object.keys(FAKES) as FakeName[];
      const started = await Promise.all(names.map((n) => FAKES[n]()));
      names.forEach((n, i) => (fakes[n] = started[i]!));
      return started;
    },
    env: () => ({
      ...Object.fromEntries(
        (Object.keys(FAKES) as FakeName[])
          .filter((n) => n !== "keyed")
          .map((n) => [`UPSTREAM_${n.toUpperCase()}_URL`, fakes[n].url]),
      ),
      ...Object.fromEntries(KEYED.map((n) => [`UPSTREAM_${n.toUpperCase()}_URL`, fakes.keyed.url])),
      YOUTUBE_API_KEY: "yt",
      WOLFRAM_APP_ID: "wa",
      NEWS_API_KEY: "na",
      MAL_CLIENT_ID: "mal",
      NASA_API_KEY: undefined,
    }),
    key: { minute: 1000 },
  });

  /** The count parameter of the last upstream request the fake saw that carried one (PubMed's esummary follows its esearch). */
  const sentCount = (fake: FakeName, param: string) =>
    fakes[fake].hits.map((hit) => new URL(`http://fake${hit}`).searchParams.get(param)).findLast((n) => n !== null) ??
    null;

  for (const { source, fake, terms, param } of SOURCES) {
    it(`${source}: Form A limit and Form B max_results are sent upstream and bound the results`, async () => {
      // Different counts per form: each request reaches the upstream instead of the search cache.
      for (const [form, n] of [
        [`q=${terms}&limit=3`, 3],
        [`query=${terms}&max_results=2`, 2],
      ] as const) {
        const res = await t.get(`/v1/data/${source}/search?${form}`);
        expect(res.status, `${source} ${form}`).toBe(200);
        const body = await res.json();
        expect(body.count, `${source} ${form}`).toBeLessThanOrEqual(n);
        expect(body.results.length).toBe(body.count);
        if (param) expect(sentCount(fake, param), `${source} ${form}`).toBe(String(n));
      }
    });
  }

  it("returns exactly the count asked for when the upstream has more (arXiv, whose default is 10)", async () => {
    const a = await (await t.get("/v1/data/arxiv/search?q=deep&limit=3")).json();
    expect(a.count).toBe(3);
    const b = await (await t.get("/v1/data/arxiv/search?query=deep&max_results=7")).json();
    expect(b.count).toBe(7);
    expect((await (await t.get("/v1/data/arxiv/search?q=deeper")).json()).count).toBe(10);
  });

  it("trims what an upstream over-delivers (the CDX fake ignores limit and sends two captures)", async () => {
    const body = await (await t.get("/v1/data/archive/search?q=example.com/trim&limit=1")).json();
    expect(fakes.archive.hits.at(-1)).toContain("limit=1");
    expect(body.count).toBe(1);
    const multi = await (
      await t.post("/v1/data/multi-search", { query: "example.com/multi", sources: ["archive"], limit: 1 })
    ).json();
    expect(multi.results.archive).toHaveLength(1);
  });

  it("documents the same parameters and bounds on every search route", async () => {
    const doc = (await (await t.gw.request("/openapi.json")).json()) as {
      paths: Record<string, { get: { parameters: Array<{ name: string; schema: unknown }> } }>;
    };
    const params = (path: string) => doc.paths[path]!.get.parameters.filter((p) => p.name !== "source");
    for (const path of ["/v1/data/wikipedia/search", "/v1/data/openlibrary/search"])
      expect(params(path), path).toEqual(params("/v1/data/{source}/search"));
    expect(params("/v1/data/{source}/search").map((p) => p.name)).toEqual(["q", "query", "limit", "max_results"]);
    expect(params("/v1/data/{source}/search").find((p) => p.name === "limit")!.schema).toMatchObject({
      minimum: 1,
      maximum: 100,
    });
  });

  it("wikipedia and openlibrary take the same count parameters, bounds and forms as the generic route", async () => {
    expect((await (await t.get("/v1/data/wikipedia/search?query=water&max_results=2")).json()).count).toBe(2);
    expect(sentCount("wikipedia", "srlimit")).toBe("2");
    await t.get("/v1/data/wikipedia/search?q=lakes");
    expect(sentCount("wikipedia", "srlimit")).toBe("5");
    await t.get("/v1/data/wikipedia/search?q=rivers&limit=60");
    expect(sentCount("wikipedia", "srlimit")).toBe("60");
    await t.get("/v1/data/openlibrary/search?query=hobbit&max_results=2");
    expect(sentCount("openlibrary", "limit")).toBe("2");
    await t.get("/v1/data/openlibrary/search?q=dragons");
    expect(sentCount("openlibrary", "limit")).toBe("10");
    for (const route of ["wikipedia/search", "openlibrary/search", "arxiv/search"]) {
      for (const bad of ["abc", "-1", "0", "1e308", "1.5", "101"]) {
        for (const field of ["max_results", "limit"]) {
          const res = await t.get(`/v1/data/${route}?query=water&${field}=${bad}`);
          expect(res.status, `${route} ${field}=${bad}`).toBe(400);
          expect((await res.json()).error, `${route} ${field}=${bad}`).toMatch(field);
        }
      }
      const both = await t.get(`/v1/data/${route}?q=water&limit=3&max_results=4`);
      expect(both.status, route).toBe(400);
      expect((await both.json()).error).toMatch(/limit \(3\) and max_results \(4\) disagree/);
    }
  });
});
