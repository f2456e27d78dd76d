import { describe, expect, it } from "vitest";
import { startFakeGithub, startFakeNasa, startFakePubmed } from "./fakes/data-sources.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("/v1/data nasa, github and pubmed", () => {
  const t = useGateway({
    fakes: () => Promise.all([startFakeNasa(), startFakeGithub(), startFakePubmed()]),
    env: ([nasa, github, pubmed]) => ({
      UPSTREAM_NASA_URL: nasa.url,
      UPSTREAM_GITHUB_URL: github.url,
      UPSTREAM_PUBMED_URL: pubmed.url,
      NASA_API_KEY: undefined,
    }),
    key: { minute: 1000 },
  });
  const { get } = t;

  it("serves NASA's APOD (with DEMO_KEY), Mars photos and near-Earth objects", async () => {
    expect(await (await get("/v1/data/nasa/apod?date=2026-11-20")).json()).toMatchObject({
      title: "Pillars of Creation",
      explanation: "Towers of gas and dust.",
      url: "https://apod.example/pillars.jpg",
      date: "2026-11-20",
      copyright: "NASA",
    });
    expect((await get("/v1/data/nasa/apod?date=yesterday")).status).toBe(400);
    const latest = await (await get("/v1/data/nasa/mars-photos")).json();
    expect(latest).toMatchObject({
      rover: "curiosity",
      photos: [{ id: 102693, earth_date: "2015-05-30", img_src: "https://mars.example/fhaz.jpg", sol: 4100 }],
    });
    expect((await (await get("/v1/data/nasa/mars-photos?rover=spirit&sol=12")).json()).photos[0].sol).toBe(12);
    expect((await get("/v1/data/nasa/mars-photos?rover=sojourner")).status).toBe(400);
    const neo = await (await get("/v1/data/nasa/neo?start_date=2026-11-25&end_date=2026-11-26")).json();
    expect(neo).toEqual({
      count: 1,
      objects: [
        {
          id: "3542519",
          name: "(2010 PK9)",
          hazardous: true,
          diameter_m: 250.5,
          approach_date: "2026-11-25",
          miss_distance_km: 7451234.12,
        },
      ],
    });
    expect((await (await get("/v1/data/nasa/search?q=saturn")).json()).results[0]).toMatchObject({
      id: "PIA001",
      title: "Saturn",
    });
  });

  it("serves GitHub repositories and search", async () => {
    expect(await (await get("/v1/data/github/repo/honojs/hono")).json()).toMatchObject({
      full_name: "honojs/hono",
      stars: 25000,
      license: "MIT",
      language: "TypeScript",
    });
    expect((await get("/v1/data/github/repo/nobody/nothing")).status).toBe(404);
    expect((await get("/v1/data/github/repo/bad%20name/x")).status).toBe(400);
  });

  it("refuses '.' and '..' in GitHub ids: nothing walks up to /user with the operator's token", async () => {
    const github = t.fakes[1];
    const attacks = [
      "/v1/data/github/get/..%2Fuser",
      "/v1/data/github/get/.%2Fuser",
      "/v1/data/github/get/..%2F..",
      "/v1/data/github/get/honojs%2F..",
      "/v1/data/github/get/%252e%252e%2Fuser",
    ];
    for (const path of attacks) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect((await res.json()).error, path).toEqual(expect.any(String));
    }
    expect(github.hits.filter((h) => !h.startsWith("/repos/") && !h.startsWith("/search/"))).toEqual([]);
    expect(github.hits.filter((h) => h.includes(".."))).toEqual([]);
    expect((await (await get("/v1/data/github/search?q=hono")).json()).results[0]).toMatchObject({
      id: "honojs/hono",
      authors: ["honojs"],
    });
  });

  it("serves PubMed search (esearch + esummary) and articles (efetch XML)", async () => {
    const s = await (await get("/v1/data/pubmed/search?q=aphasia")).json();
    expect(s.results[0]).toMatchObject({
      id: "31452104",
      title: "Aphasia therapy outcomes.",
      authors: ["Smith J"],
      extra: { journal: "Brain", doi: "10.1000/xyz" },
    });
    const a = await (await get("/v1/data/pubmed/article/31452104")).json();
    expect(a).toEqual({
      pmid: "31452104",
      title: "Aphasia therapy outcomes.",
      abstract: "BACKGROUND: Aphasia affects speech.\n\nRESULTS: Therapy helped.",
      authors: ["Jane Smith", "John Doe"],
      journal: "Brain",
      year: 2019,
      doi: "10.1000/xyz",
      mesh_terms: ["Aphasia"],
      url: "https://pubmed.ncbi.nlm.nih.gov/31452104/",
    });
    expect((await get("/v1/data/pubmed/article/99999999")).status).toBe(404);
    expect((await get("/v1/data/pubmed/article/abc")).status).toBe(400);
  });
});
