import { describe, expect, it } from "vitest";
import { startFakeArxiv, startFakeOpenLibrary, startFakeWikipedia, type FakeSource } from "./fakes/data-sources.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("/v1/data: sources, search, get, specific endpoints, multi-search", () => {
  let wiki: FakeSource;
  let arxiv: FakeSource;
  let books: FakeSource;
  const t = useGateway({
    fakes: async () =>
      ([wiki, arxiv, books] = await Promise.all([startFakeWikipedia(), startFakeArxiv(), startFakeOpenLibrary()])),
    env: () => ({
      UPSTREAM_WIKIPEDIA_URL: wiki.url,
      UPSTREAM_ARXIV_URL: arxiv.url,
      UPSTREAM_OPENLIBRARY_URL: books.url,
    }),
    key: { minute: 1000 },
  });
  const { get } = t;

  it("lists the sources, with or without a key", async () => {
    const body = await (await t.gw.request("/v1/data/sources")).json();
    expect(body.sources).toEqual([
      "arxiv",
      "semantic_scholar",
      "pubmed",
      "wikipedia",
      "github",
      "nasa",
      "census",
      "openlibrary",
      "archive",
      "youtube",
      "wolfram",
      "news",
      "weather",
      "finance",
      "fec",
      "mal",
      "judiciary",
    ]);
  });

  it("searches arXiv's Atom feed into normalised records (Form A and Form B)", async () => {
    const a = await (await get("/v1/data/arxiv/search?q=attention&limit=2")).json();
    expect(a).toMatchObject({ source: "arxiv", query: "attention", count: 2 });
    expect(a.results[0]).toEqual({
      id: "2301.00001v1",
      title: "Attention Again (extended)",
      url: "http://arxiv.org/abs/2301.00001v1",
      summary: "We study attention. It works.",
      authors: ["Ada Lovelace", "Alan Turing"],
      published: "2023-01-04T18:00:00Z",
      source: "arxiv",
      extra: { pdf: "http://arxiv.org/pdf/2301.00001v1", category: "cs.LG", updated: "2023-01-05T10:00:00Z" },
    });
    expect(arxiv.hits.at(-1)).toContain("search_query=all%3Aattention");
    const b = await (await get("/v1/data/arxiv/search?query=engines&max_results=1")).json();
    expect(b.count).toBe(1);
  });

  it("gets one item by id, and explains bad ids and unknown sources with 400, missing items with 404", async () => {
    const paper = await (await get("/v1/data/arxiv/get/2301.00001")).json();
    expect(paper).toMatchObject({ id: "2301.00001", source: "arxiv", result: { title: "Attention Again (extended)" } });
    expect((await get("/v1/data/arxiv/get/not-an-id")).status).toBe(400);
    expect((await get("/v1/data/arxiv/get/2399.99999")).status).toBe(404);
    const unknown = await get("/v1/data/myspace/search?q=x");
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toMatch(/unknown data source 'myspace'/);
    expect((await get("/v1/data/arxiv/search")).status).toBe(400);
  });

  it("serves Wikipedia search and summaries", async () => {
    const s = await (await get("/v1/data/wikipedia/search?q=ada")).json();
    expect(s.results[0]).toMatchObject({
      id: "Ada Lovelace",
      summary: "English mathematician & writer",
      url: "https://en.wikipedia.org/wiki/Ada_Lovelace",
    });
    const summary = await (await get("/v1/data/wikipedia/summary/Ada%20Lovelace")).json();
    expect(summary).toMatchObject({
      title: "Ada Lovelace",
      extract: expect.stringContaining("mathematician"),
      thumbnail: "https://upload.example/ada.jpg",
    });
    expect((await get("/v1/data/wikipedia/summary/Nobody")).status).toBe(404);
  });

  it("looks books up by checked ISBN, resolving author names", async () => {
    const book = await (await get("/v1/data/openlibrary/isbn/978-0-261-10238-5")).json();
    expect(book).toMatchObject({
      title: "The Lord of the Rings",
      authors: ["J.R.R. Tolkien"],
      year: 1991,
      isbn: "9780261102385",
    });
    const bad = await get("/v1/data/openlibrary/isbn/9780261102386");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/check digit/);
    const search = await (await get("/v1/data/openlibrary/search?q=tolkien")).json();
    expect(search.results[0]).toMatchObject({ id: "OL45883W", authors: ["J.R.R. Tolkien"], published: "1954" });
  });

  it("turns malformed payloads, rate limits and outages into 502/503, never 500", async () => {
    for (const [fake, path] of [
      [arxiv, "/v1/data/arxiv/search?q=garbage1"],
      [wiki, "/v1/data/wikipedia/search?q=garbage2"],
      [books, "/v1/data/openlibrary/isbn/0306406152"],
    ] as const) {
      fake.setGarbage(true);
      try {
        const res = await get(path);
        expect(res.status, path).toBe(502);
        expect((await res.json()).error).toMatch(/not JSON|could not be read|without an Atom feed/);
      } finally {
        fake.setGarbage(false);
      }
    }
    wiki.setStatus(429);
    try {
      const limited = await get("/v1/data/wikipedia/search?q=limited");
      expect(limited.status).toBe(503);
      expect((await limited.json()).error).toMatch(/rate limiting/);
    } finally {
      wiki.setStatus(undefined);
    }
  });

  it("serves repeated lookups from the cache: the upstream sees one request", async () => {
    const before = wiki.hits.filter((h) => h.includes("srsearch=cached")).length;
    await Promise.all(Array.from({ length: 5 }, () => get("/v1/data/wikipedia/search?q=cached")));
    await get("/v1/data/wikipedia/search?q=cached");
    expect(wiki.hits.filter((h) => h.includes("srsearch=cached")).length - before).toBe(1);
  });

  it("multi-search returns what it can when one source hangs and another fails", async () => {
    // Budget well above openlibrary's retries (at most ~0.6 s of backoff) and wikipedia's answer on a busy
    // machine, and well below arxiv's hang: the answer comes at the budget, far from the hang.
    arxiv.setDelay(60_000);
    books.setStatus(500);
    try {
      const started = Date.now();
      const res = await t.gw.request("/v1/data/multi-search", {
        method: "POST",
        headers: { "content-type": "application/json", "X-API-Key": t.key },
        body: JSON.stringify({ query: "partial", budget_ms: 5000, sources: ["arxiv", "wikipedia", "openlibrary"] }),
      });
      expect(Date.now() - started).toBeLessThan(30_000);
      const body = await res.json();
      expect(body.status.wikipedia).toMatchObject({ status: "ok", count: 2 });
      expect(body.status.arxiv).toMatchObject({ status: "timeout", count: 0 });
      expect(body.status.openlibrary).toMatchObject({ status: "error", error: "openlibrary failed (500)" });
      expect(body.results.wikipedia).toHaveLength(2);
    } finally {
      arxiv.setDelay(0);
      books.setStatus(undefined);
    }
    const only = await (await t.post("/v1/data/multi-search", { query: "x", sources: ["wikipedia"], limit: 1 })).json();
    expect(Object.keys(only.results)).toEqual(["wikipedia"]);
    expect(only.results.wikipedia).toHaveLength(1);
  });
});
