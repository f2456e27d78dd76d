import { afterAll, describe, expect, it, vi } from "vitest";
import { VIS_CATEGORIES, VISUALIZATIONS } from "../lib/api/datavis/gallery.ts";
import { startFakeCoinGecko, startFakeUsgs, startFakeWaqi, type FakeUpstream } from "./fakes/datavis-upstreams.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("/v1/datavis", () => {
  let usgs: FakeUpstream;
  let coingecko: FakeUpstream;
  let waqi: FakeUpstream;
  const t = useGateway({
    fakes: async () =>
      ([usgs, coingecko, waqi] = await Promise.all([startFakeUsgs(), startFakeCoinGecko(), startFakeWaqi()])),
    env: () => ({
      UPSTREAM_USGS_URL: usgs.url,
      UPSTREAM_FINANCE_URL: coingecko.url,
      UPSTREAM_WAQI_URL: waqi.url,
      WAQI_TOKEN: undefined,
    }),
    key: { minute: 1000 },
  });
  afterAll(() => vi.restoreAllMocks());
  const { get } = t;

  it("describes the gallery without a key, and with one", async () => {
    for (const path of ["/v1/datavis/", "/v1/datavis"]) {
      const res = await t.gw.request(path);
      expect(res.status, path).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ name: "DataVis", total_visualizations: VISUALIZATIONS.length });
      expect(body.data_sources.live.map((s: { name: string }) => s.name)).toEqual([
        "earthquake",
        "crypto",
        "airquality",
      ]);
      expect(body.data_sources.trove.datasets_used).toBe(new Set(VISUALIZATIONS.map((v) => v.dataset)).size);
      expect(body.endpoints.map((e: { path: string }) => e.path)).toContain("/v1/datavis/proxy/{source}");
    }
    const keyed = await get("/v1/datavis/");
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get("X-RateLimit-Remaining")).toMatch(/^\d+$/);
  });

  it("needs a key for categories, list and proxy", async () => {
    for (const path of ["/v1/datavis/categories", "/v1/datavis/list", "/v1/datavis/proxy/earthquake"]) {
      const res = await t.gw.request(path);
      expect(res.status, path).toBe(401);
      expect(Object.keys(await res.json())).toEqual(["error"]);
    }
  });

  it("counts visualizations per category, matching the gallery", async () => {
    const res = await get("/v1/datavis/categories");
    expect(res.status).toBe(200);
    expect(res.headers.get("X-RateLimit-Limit")).toMatch(/^\d+$/);
    const body = await res.json();
    expect(body.total_visualizations).toBe(VISUALIZATIONS.length);
    expect(body.total_visualizations).toBeGreaterThanOrEqual(123);
    expect(body.categories.map((c: { name: string }) => c.name)).toEqual([...VIS_CATEGORIES]);
    for (const c of body.categories) {
      expect(c.count, c.name).toBe(VISUALIZATIONS.filter((v) => v.category === c.name).length);
      expect(c.count, c.name).toBeGreaterThan(0);
      expect(body.by_category[c.name]).toBe(c.count);
    }
  });

  it("lists every visualization with its spec, and filters by category", async () => {
    const all = await (await get("/v1/datavis/list")).json();
    expect(all.total).toBe(VISUALIZATIONS.length);
    expect(all.visualizations).toHaveLength(all.total);
    expect(Object.values(all.by_category as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(all.total);
    const penguins = all.visualizations.find((v: { name: string }) => v.name === "penguins-flipper-vs-mass");
    expect(penguins).toMatchObject({
      category: "relationship",
      dataset: "wild/palmer-penguins",
      description: expect.stringContaining("flipper"),
    });
    expect(penguins.spec.data).toEqual({
      url: "/v1/trove/wild/palmer-penguins?limit=50000",
      format: { type: "json", property: "data" },
    });
    expect(penguins.spec.$schema).toMatch(/vega-lite\/v6/);

    const geo = await (await get("/v1/datavis/list?category=geographic")).json();
    expect(geo.category).toBe("geographic");
    expect(geo.total).toBe(VISUALIZATIONS.filter((v) => v.category === "geographic").length);
    expect(new Set(geo.visualizations.map((v: { category: string }) => v.category))).toEqual(new Set(["geographic"]));
    expect(geo.by_category.geographic).toBe(geo.total);
    expect(geo.by_category.trend).toBe(0);
  });

  it("rejects an unknown category filter with 400 naming it, and reads an empty filter as none", async () => {
    for (const category of ["astrology", "Trend"]) {
      const res = await get(`/v1/datavis/list?category=${category}`);
      expect(res.status, category).toBe(400);
      expect((await res.json()).error).toContain(`unknown visualization category '${category}'`);
    }
    const empty = await get("/v1/datavis/list?category=");
    expect(empty.status).toBe(200);
    expect(await empty.json()).toMatchObject({ total: VISUALIZATIONS.length, category: null });
  });

  it("the data URL of a spec answers through the gateway with the rows the chart needs", async () => {
    const spec = VISUALIZATIONS.find((v) => v.name === "co2-keeling-curve")!.spec as { data: { url: string } };
    const body = await (await t.gw.request(spec.data.url)).json();
    expect(body.data).toHaveLength(body.total);
    expect(body.data[0]).toHaveProperty("CO2");
  });

  it("rejects an unknown proxy source with 400 naming it", async () => {
    const res = await get("/v1/datavis/proxy/weather");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error:
        "invalid request: source: unknown datavis source 'weather'; expected one of earthquake, crypto, airquality",
    });
  });

  it("proxies live USGS data and serves a second call from cache (one upstream hit)", async () => {
    const first = await get("/v1/datavis/proxy/earthquake");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    const body = await first.json();
    expect(body).toMatchObject({
      source: "earthquake",
      stale: false,
      cached: false,
      snapshot: false,
      upstream: { name: "usgs", url: `${usgs.url}/earthquakes/feed/v1.0/summary/all_day.geojson` },
    });
    expect(body.data.features[0].properties.place).toBe("112 km SSW of Tokyo, Japan");
    const second = await (await get("/v1/datavis/proxy/earthquake")).json();
    expect(second).toMatchObject({ stale: false, cached: true, fetched_at: body.fetched_at });
    expect(usgs.hits).toHaveLength(1);
  });

  it("serves the last good crypto answer, marked stale, when CoinGecko fails after the cache expired", async () => {
    const fresh = await (await get("/v1/datavis/proxy/crypto")).json();
    expect(fresh).toMatchObject({
      stale: false,
      data: [{ id: "bitcoin", current_price: 91234.5 }, { id: "ethereum" }],
    });
    coingecko.setStatus(500);
    const realNow = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(realNow + 6 * 60_000);
    try {
      const res = await get("/v1/datavis/proxy/crypto");
      expect(res.status).toBe(200);
      const stale = await res.json();
      expect(stale).toMatchObject({
        stale: true,
        cached: true,
        snapshot: false,
        fetched_at: fresh.fetched_at,
        data: fresh.data,
      });
      expect(coingecko.hits.length).toBeGreaterThan(1);
    } finally {
      vi.restoreAllMocks();
      coingecko.setStatus(undefined);
    }
  });

  it("serves the shipped air-quality snapshot, stale, when no WAQI token is set, without calling WAQI", async () => {
    const body = await (await get("/v1/datavis/proxy/airquality")).json();
    expect(body).toMatchObject({
      source: "airquality",
      stale: true,
      snapshot: true,
      fetched_at: null,
      data: { status: "ok" },
    });
    expect(body.note).toMatch(/WAQI_TOKEN/);
    expect(body.data.data.length).toBeGreaterThan(5);
    expect(waqi.hits).toEqual([]);
  });

  it("with a WAQI token: the snapshot while WAQI fails before any answer, then live data", async () => {
    process.env.WAQI_TOKEN = "test-waqi-token";
    try {
      waqi.setStatus(500);
      const failed = await (await get("/v1/datavis/proxy/airquality")).json();
      expect(failed).toMatchObject({ stale: true, snapshot: true, fetched_at: null });
      expect(failed.note).toMatch(/waqi/);
      expect(waqi.hits.length).toBeGreaterThan(0);
      waqi.setStatus(undefined);
      const live = await (await get("/v1/datavis/proxy/airquality")).json();
      expect(live).toMatchObject({
        stale: false,
        snapshot: false,
        data: { status: "ok", data: [{ station: { name: "London, United Kingdom" } }] },
      });
      expect(live.upstream.url).not.toContain("test-waqi-token");
    } finally {
      delete process.env.WAQI_TOKEN;
      waqi.setStatus(undefined);
    }
  });
});
