import { describe, expect, it } from "vitest";
import { startFakeArchive, startFakeKeyedSources, startFakeOpenLibrary } from "./fakes/data-sources.ts";
import { startFakeSerper } from "./fakes/serper.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("/v1/utils backed by third-party services", () => {
  const t = useGateway({
    fakes: () => Promise.all([startFakeKeyedSources(), startFakeSerper(), startFakeOpenLibrary(), startFakeArchive()]),
    env: ([news, serper, books, archive]) => ({
      UPSTREAM_NEWS_URL: news.url,
      UPSTREAM_WEBSEARCH_URL: serper.url,
      UPSTREAM_OPENLIBRARY_URL: books.url,
      UPSTREAM_ARCHIVE_URL: archive.url,
      NEWS_API_KEY: "na",
      SERPER_API_KEY: undefined,
    }),
    key: { minute: 1000 },
  });
  const { get } = t;

  it("serves news headlines and search, validating dates and page size", async () => {
    const h = await (await get("/v1/utils/news/headlines?country=gb&category=science")).json();
    expect(h.articles[0].title).toBe("Top science story in gb");
    expect((await get("/v1/utils/news/headlines?page_size=101")).status).toBe(400);
    const s = await (await get("/v1/utils/news/search?q=gateways&from=2026-11-01")).json();
    expect(s).toMatchObject({ total: 1, articles: [{ title: "Gateways go mainstream" }] });
    expect((await get("/v1/utils/news/search?q=x&from=yesterday")).status).toBe(400);
  });

  it("web search needs SERPER_API_KEY, then returns organic results", async () => {
    const before = await get("/v1/utils/search?q=hono");
    expect(before.status).toBe(503);
    expect((await before.json()).error).toMatch(/SERPER_API_KEY/);
    process.env.SERPER_API_KEY = "serper";
    const body = await (await get("/v1/utils/search?q=hono&num=2&gl=de")).json();
    expect(body).toEqual({
      query: "hono",
      count: 2,
      results: [
        expect.objectContaining({
          title: "Result 1 for hono",
          url: "https://site0.example/",
          snippet: "Snippet 1",
          position: 1,
        }),
        expect.objectContaining({ position: 2 }),
      ],
    });
    expect((await get("/v1/utils/search?q=x&num=500")).status).toBe(400);
  });

  it("searches books and looks up an ISBN", async () => {
    expect((await (await get("/v1/utils/books/search?q=tolkien")).json()).results[0]).toMatchObject({
      title: "The Lord of the Rings",
    });
    expect(await (await get("/v1/utils/books/isbn/9780261102385")).json()).toMatchObject({
      title: "The Lord of the Rings",
      authors: ["J.R.R. Tolkien"],
    });
    expect((await get("/v1/utils/books/isbn/1234567890")).status).toBe(400);
  });

  it("summarises a URL's Wayback history and saves a page as a job", async () => {
    expect(
      await (await get(`/v1/utils/archive/wayback?url=${encodeURIComponent("https://example.com/")}`)).json(),
    ).toMatchObject({
      url: "https://example.com/",
      first: "19981201000000",
      last: "20200101000000",
      snapshot_count: 2,
    });
    const created = await t.post("/v1/utils/archive/create", { url: "https://example.com/page" });
    expect(created.status).toBe(202);
    const { job_id, status } = await created.json();
    expect(status).toBe("pending");
    let job: Record<string, unknown> = {};
    // Polled for as long as a busy machine takes, not a number of tries that races the clock.
    const settle = (id: string, status: string) =>
      expect
        .poll(
          async () => {
            job = await (await get(`/v1/utils/archive/jobs/${id}`)).json();
            return job.status;
          },
          { timeout: 30_000, interval: 20 },
        )
        .toBe(status);
    await settle(job_id, "completed");
    expect(job).toMatchObject({
      status: "completed",
      url: "https://example.com/page",
      snapshot_url: "https://web.archive.org/web/20261126000000/https://example.com/page",
    });
    const refused = await (await t.post("/v1/utils/archive/create", { url: "https://refuse.example/" })).json();
    await settle(refused.job_id, "failed");
    expect(job).toMatchObject({ status: "failed", error: expect.stringMatching(/refused/) });
    expect((await get("/v1/utils/archive/jobs/task_nope")).status).toBe(404);
  });

  it("lists the external utilities and whether each is configured", async () => {
    const body = await (await get("/v1/utils/external")).json();
    expect(Object.keys(body.external_utilities)).toEqual(["news", "search", "books", "archive"]);
    expect(body.external_utilities.books).toMatchObject({ configured: true, credential: null });
    expect(body.external_utilities.news.endpoints).toContain("GET /v1/utils/news/headlines");
  });
});
