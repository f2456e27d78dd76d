import { describe, expect, it } from "vitest";
import { startFakeArchive, startFakeCensus, startFakeSemanticScholar } from "./fakes/data-sources.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("/v1/data archive, semantic_scholar and census", () => {
  const t = useGateway({
    fakes: () => Promise.all([startFakeArchive(), startFakeSemanticScholar(), startFakeCensus()]),
    env: ([archive, scholar, census]) => ({
      UPSTREAM_ARCHIVE_URL: archive.url,
      UPSTREAM_SEMANTIC_SCHOLAR_URL: scholar.url,
      UPSTREAM_CENSUS_URL: census.url,
    }),
    key: { minute: 1000 },
  });
  const { get } = t;

  it("returns the archived page nearest a time, and lists captures (alias wayback)", async () => {
    const latest = await (
      await get(`/v1/data/archive/snapshot?url=${encodeURIComponent("https://example.com/")}`)
    ).json();
    expect(latest).toMatchObject({
      url: "https://example.com/",
      timestamp: "20200101000000",
      content: expect.stringContaining("Example Domain"),
    });
    const old = await (
      await get(`/v1/data/archive/snapshot?url=${encodeURIComponent("https://example.com/")}&timestamp=20150101`)
    ).json();
    expect(old.timestamp).toBe("20150315120000");
    expect((await get(`/v1/data/archive/snapshot?url=${encodeURIComponent("https://never.example/")}`)).status).toBe(
      404,
    );
    expect((await get("/v1/data/archive/snapshot?url=not-a-url")).status).toBe(400);
    const caps = await (await get(`/v1/data/wayback/search?q=${encodeURIComponent("example.com")}`)).json();
    expect(caps).toMatchObject({ source: "archive", count: 2 });
    expect(caps.results[0]).toMatchObject({
      published: "19981201000000",
      url: "https://web.archive.org/web/19981201000000/http://example.com/",
    });
  });

  it("serves an archived page's HTML sandboxed, and never to a service worker fetch", async () => {
    const path = `/v1/data/archive/snapshot?url=${encodeURIComponent("https://example.com/")}`;
    const byId = encodeURIComponent("https://example.com/");
    for (const res of [
      await get(path),
      await get(`/v1/data/archive/get/${byId}`),
      await get(`/v1/data/wayback/get/${byId}`),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    }
    const worker = await t.gw.request(path, { headers: { "X-API-Key": t.key, "Service-Worker": "script" } });
    expect(worker.status).toBe(403);
  });

  it("searches Semantic Scholar and gets a paper by DOI", async () => {
    const s = await (await get("/v1/data/semantic_scholar/search?q=literature+graph")).json();
    expect(s.results[0]).toMatchObject({
      title: "Construction of the Literature Graph in Semantic Scholar",
      authors: ["Waleed Ammar"],
      published: "2018",
      extra: { doi: "10.18653/v1/N18-3011", citations: 400 },
    });
    const byDoi = await (
      await get(`/v1/data/semantic_scholar/get/${encodeURIComponent("10.18653/v1/N18-3011")}`)
    ).json();
    expect(byDoi.result.id).toBe("649def34f8be52c8b66281af98ae884c09aef38b");
  });

  it("reports population by state (default) and county, and needs a state for tracts", async () => {
    const states = await (await get("/v1/data/census/population")).json();
    expect(states).toMatchObject({
      geography: "state",
      year: 2022,
      count: 2,
      areas: [
        { name: "California", population: 39356104, fips: "06" },
        { name: "Alabama", population: 5028092, fips: "01" },
      ],
    });
    const counties = await (await get("/v1/data/census/population?geography=county&year=2021")).json();
    expect(counties.areas[0]).toEqual({ name: "Los Angeles County, California", population: 9936690, fips: "06037" });
    expect((await get("/v1/data/census/population?geography=tract")).status).toBe(400);
    expect((await get("/v1/data/census/population?geography=planet")).status).toBe(400);
    expect((await (await get("/v1/data/census/search?q=calif")).json()).results[0]).toMatchObject({
      id: "06",
      title: "California",
    });
  });
});
