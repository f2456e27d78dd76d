import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isGatewayRequest } from "../lib/front-door.ts";
import { backendEnv } from "./support/backends.ts";
import { useGateway } from "./support/use-gateway.ts";
import { startServerProcess, type ServerProcess } from "./support/server-process.ts";

const COUNT = 51;

describe("clinical reference over HTTP", () => {
  const t = useGateway();
  const { get } = t;

  describe("GET /v1/clinical/", () => {
    it("answers without a key, with the real number of conditions and the disclaimer", async () => {
      for (const path of ["/v1/clinical/", "/v1/clinical"]) {
        const res = await get(path, false);
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(body).toMatchObject({ name: "Clinical reference", conditions_count: COUNT });
        expect(body.endpoints).toMatchObject({
          conditions: "/v1/clinical/conditions",
          search: "/v1/clinical/search?q=",
        });
        expect(body.disclaimer).toMatch(/not medical advice/);
      }
    });
    it("accepts a key and then reports its limits", async () => {
      const res = await get("/v1/clinical/");
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBeTruthy();
    });
    it("refuses a bad key", async () => {
      expect((await t.gw.request("/v1/clinical/", { headers: { "X-API-Key": "sk_nope" } })).status).toBe(401);
    });
  });

  describe("GET /v1/clinical/conditions", () => {
    it("lists every condition as {category, id, name}", async () => {
      const res = await get("/v1/clinical/conditions");
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
      const { conditions } = await res.json();
      expect(conditions).toHaveLength(COUNT);
      expect(conditions[0]).toEqual({
        category: "developmental",
        id: "autism-spectrum-disorder",
        name: "Autism spectrum disorder",
      });
      for (const c of conditions) expect(Object.keys(c).sort()).toEqual(["category", "id", "name"]);
    });
    it("needs a key", async () => {
      const res = await get("/v1/clinical/conditions", false);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.stringMatching(/missing API key/) });
    });
  });

  describe("GET /v1/clinical/conditions/{condition_id}", () => {
    it("finds a condition by slug and by numeric id, with every section", async () => {
      const bySlug = await (await get("/v1/clinical/conditions/down-syndrome")).json();
      const byId = await (await get("/v1/clinical/conditions/2")).json();
      expect(byId).toEqual(bySlug);
      expect(bySlug).toMatchObject({
        id: "down-syndrome",
        numeric_id: 2,
        name: "Down syndrome",
        category: "developmental",
        icd10: "Q90.9",
        icd11: "LD40.0",
        url: "/clinical/down-syndrome",
      });
      for (const field of ["overview", "symptoms", "communication", "treatments", "markdown", "disclaimer"])
        expect(bySlug[field].length).toBeGreaterThan(50);
      expect(Array.isArray(bySlug.aac_strategies)).toBe(true);
      expect(bySlug.markdown).toMatch(/^# Down syndrome/);
    });
    it("answers 404 for an unknown slug or an id out of range", async () => {
      for (const id of ["no-such-condition", "0", String(COUNT + 1)]) {
        const res = await get(`/v1/clinical/conditions/${id}`);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: `unknown condition '${id}'` });
      }
    });
    it("needs a key", async () => {
      expect((await get("/v1/clinical/conditions/1", false)).status).toBe(401);
    });
  });

  describe("GET /v1/clinical/search", () => {
    it("ranks conditions, names first, with snippets", async () => {
      const res = await get("/v1/clinical/search?q=apraxia");
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.query).toBe("apraxia");
      expect(body.count).toBe(body.results.length);
      expect(body.results[0]).toMatchObject({
        id: expect.any(String),
        name: expect.stringMatching(/apraxia/i),
        category: expect.any(String),
        score: expect.any(Number),
      });
      expect(body.results[0].snippet.toLowerCase()).toContain("apraxia");
    });
    it("honours limit and validates it", async () => {
      expect((await (await get("/v1/clinical/search?q=speech&limit=2")).json()).results).toHaveLength(2);
      for (const limit of ["0", "52", "x"])
        expect((await get(`/v1/clinical/search?q=speech&limit=${limit}`)).status).toBe(400);
      // A blank limit (a form field left empty) is the default, 10, not a 400 "too small".
      const blank = await get("/v1/clinical/search?q=speech&limit=");
      expect(blank.status).toBe(200);
      expect((await blank.json()).results).toEqual((await (await get("/v1/clinical/search?q=speech")).json()).results);
    });
    it("answers an empty list for a word no condition has", async () => {
      expect(await (await get("/v1/clinical/search?q=zzzqqq")).json()).toEqual({
        query: "zzzqqq",
        count: 0,
        results: [],
      });
    });
    it("needs q and a key", async () => {
      for (const path of ["/v1/clinical/search", "/v1/clinical/search?q=", "/v1/clinical/search?q=%20"]) {
        const res = await get(path);
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ error: expect.stringMatching(/q/) });
      }
      expect((await get("/v1/clinical/search?q=aphasia", false)).status).toBe(401);
    });
  });

  describe("the standalone content service (/api, no key)", () => {
    it("GET /api/conditions lists records with their page URL", async () => {
      const res = await get("/api/conditions", false);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBeNull();
      const body = await res.json();
      expect(body.success).toBe(true);
      expect(body.count).toBe(COUNT);
      expect(body.conditions).toHaveLength(COUNT);
      expect(body.conditions[1]).toEqual({
        slug: "down-syndrome",
        name: "Down syndrome",
        has_html: true,
        url: "/clinical/down-syndrome",
      });
    });
    it("GET /api/conditions/<slug> gives the record with its Markdown, 404 in the service's envelope", async () => {
      const res = await get("/api/conditions/rett-syndrome", false);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.success).toBe(true);
      expect(body.condition).toMatchObject({
        slug: "rett-syndrome",
        name: "Rett syndrome",
        has_html: true,
        url: "/clinical/rett-syndrome",
        icd10: "F84.2",
      });
      expect(body.condition.markdown).toMatch(/^# Rett syndrome/);
      const missing = await get("/api/conditions/no-such-thing", false);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ success: false, error: "unknown condition 'no-such-thing'" });
    });
    it("GET /api/search matches names only, and needs q", async () => {
      const res = await get("/api/search?q=syndrome", false);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ success: true, query: "syndrome" });
      expect(body.count).toBe(body.results.length);
      expect(body.results.length).toBeGreaterThan(2);
      for (const r of body.results) expect(r.name).toMatch(/syndrome/i);
      const none = await (await get("/api/search?q=hypotonia", false)).json();
      expect(none).toEqual({ success: true, query: "hypotonia", count: 0, results: [] });
      const bad = await get("/api/search", false);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ success: false, error: expect.stringMatching(/q/) });
    });
    it("GET /api/stats counts pages", async () => {
      const res = await get("/api/stats", false);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        success: true,
        stats: { total_conditions: COUNT, html_ready: COUNT, markdown_only: 0 },
      });
    });
    it("is reached through server.ts's front door", () => {
      for (const path of ["/api/conditions", "/api/conditions/down-syndrome", "/api/search?q=x", "/api/stats"])
        expect(isGatewayRequest(path, "text/html")).toBe(true);
      expect(isGatewayRequest("/api/auth/session", "*/*")).toBe(false);
    });
  });

  describe("OpenAPI", () => {
    it("documents every clinical route, the /api ones without security", async () => {
      const doc = await (await t.gw.request("/openapi.json")).json();
      for (const path of [
        "/v1/clinical",
        "/v1/clinical/conditions",
        "/v1/clinical/conditions/{condition_id}",
        "/v1/clinical/search",
      ])
        expect(doc.paths[path]?.get, path).toBeDefined();
      for (const path of ["/api/conditions", "/api/conditions/{slug}", "/api/search", "/api/stats"])
        expect(doc.paths[path]?.get.security, path).toEqual([]);
      expect(doc.paths["/v1/clinical/conditions"].get.security.length).toBeGreaterThan(0);
    });
  });
});

describe("npm start's server: /api content paths reach the gateway, /clinical pages reach Next", () => {
  const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
  let server: ServerProcess;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    server = await startServerProcess(b.env);
  });
  afterAll(async () => {
    await server?.stop();
    await cleanup?.();
  });

  it("answers the content service as JSON even to a browser", async () => {
    for (const path of ["/api/conditions", "/api/conditions/down-syndrome", "/api/search?q=down", "/api/stats"]) {
      const res = await fetch(`${server.url}${path}`, { headers: { accept: BROWSER_ACCEPT } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(/application\/json/);
      expect((await res.json()).success, path).toBe(true);
    }
  });

  it("serves the page each record's url points at, rendered and sanitised", async () => {
    const record = (await (await fetch(`${server.url}/api/conditions/down-syndrome`)).json()).condition;
    const res = await fetch(`${server.url}${record.url}`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<h1>Down syndrome</h1>");
    expect(html).toContain("<h2>Communication profile</h2>");
    expect(html).toMatch(/not medical advice/);
    const index = await fetch(`${server.url}/clinical`, { headers: { accept: BROWSER_ACCEPT } });
    expect(await index.text()).toContain('href="/clinical/down-syndrome"');
    expect(
      (await fetch(`${server.url}/clinical/no-such-condition`, { headers: { accept: BROWSER_ACCEPT } })).status,
    ).toBe(404);
  });
});
