import fs from "node:fs";
import { compileErrors, validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeKey } from "../lib/gateway/keys/key-changes.ts";
import { exampleOf, tagSections, type OpenApiDocument } from "../lib/portal/docs/openapi-view.ts";
import { CAPABILITIES } from "../lib/portal/pages/capabilities.ts";
import { databaseBackends, limitBackends } from "./support/backends.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { addProbeRoutes } from "./support/probe-routes.ts";

// Embedded defaults, then the production pair (PostgreSQL + Redis) when their URLs are set.
const combos = databaseBackends.map((db, i) => [db, limitBackends[i] ?? "memory"] as const);
/** What /health and /openapi.json must report: package.json's version, read here apart from lib/version.ts. */
const PACKAGE_VERSION = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string }).version;

describe.each(combos)("the /v1 pipeline on %s with %s limits", (db, limits) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ db, limits });
    addProbeRoutes(gw.app);
  });
  afterAll(async () => {
    await gw?.close();
  });

  const json = (body: unknown, key?: string): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { "X-API-Key": key } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

  describe("status endpoints", () => {
    it("GET / and /v1 answer the service index without a key", async () => {
      for (const path of ["/", "/v1", "/v1/"]) {
        const res = await gw.request(path, { headers: { accept: "application/json" } });
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(body.version).toBe("v1");
        expect(Object.keys(body.endpoints)).toEqual(expect.arrayContaining(["data", "llm", "orchestrate", "utils"]));
        expect(body.authentication.methods).toHaveLength(3);
        expect(body.authentication.rate_limit).toMatch(/midnight UTC/);
        expect(typeof body.documentation).toBe("string");
      }
    });

    it("/v1/capabilities counts the route table and lists only configured providers", async () => {
      const res = await gw.request("/v1/capabilities");
      const body = await res.json();
      const doc = await (await gw.request("/openapi.json")).json();
      const operations = Object.values(doc.paths as Record<string, object>).reduce<number>(
        (n, ops) => n + Object.keys(ops).length,
        0,
      );
      expect(body.endpoints).toBe(operations);
      expect(body.providers).toEqual([]);
    });

    it("/openapi.json is a valid OpenAPI 3.1.0 document with package.json's version, as /health says", async () => {
      const res = await gw.request("/openapi.json");
      expect(res.status).toBe(200);
      const doc = await res.json();
      expect(doc.openapi).toBe("3.1.0");
      expect(doc.info.version).toBe(PACKAGE_VERSION);
      expect(await (await gw.request("/health")).json()).toEqual({ status: "ok", version: PACKAGE_VERSION });
      const result = await validate(structuredClone(doc));
      expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
      expect(doc.paths["/v1/key"].get.security.length).toBeGreaterThan(0);
      expect(doc.paths["/health"].get.security).toEqual([]);
    });

    it("/openapi.json reads into the API reference: every schema resolves, every Try it body starts valid", async () => {
      const doc = (await (await gw.request("/openapi.json")).json()) as OpenApiDocument;
      const sections = tagSections(doc);
      expect(sections.reduce((n, s) => n + s.operations.length, 0)).toBe(
        Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0),
      );
      const anchors = sections.flatMap((s) => [s.anchor, ...s.operations.map((o) => o.anchor)]);
      expect(new Set(anchors).size).toBe(anchors.length);
      const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
      for (const ref of new Set(refs)) expect(doc.components?.schemas, ref).toHaveProperty(ref.slice(22, -1));
      // The body Try it starts from passes the operation's own schema, checked by a JSON Schema validator.
      const ajv = new Ajv2020({ strict: false, validateFormats: false });
      ajv.addSchema({ $id: "doc", components: doc.components } as object);
      const invalid = sections
        .flatMap((s) => s.operations)
        .filter((op) => op.body?.schema && op.body.types.includes("application/json"))
        .flatMap((op) => {
          const schema = JSON.parse(JSON.stringify(op.body!.schema).replaceAll('"#/components', '"doc#/components'));
          const example = exampleOf(doc, op.body!.schema!);
          return ajv.validate(schema, example) ? [] : [`${op.method} ${op.path}: ${ajv.errorsText()}`];
        });
      expect(invalid).toEqual([]);
    });

    it("names every tag the portal home's area cards link to", async () => {
      const doc = await (await gw.request("/openapi.json")).json();
      const tags = new Set(
        Object.values(doc.paths as Record<string, Record<string, { tags?: string[] }>>).flatMap((ops) =>
          Object.values(ops).flatMap((op) => op.tags ?? []),
        ),
      );
      expect(CAPABILITIES.map((c) => c.tag).filter((t) => !tags.has(t))).toEqual([]);
    });

    it("/metrics speaks Prometheus text and labels by route template", async () => {
      await gw.request("/health");
      const res = await gw.request("/metrics");
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      const text = await res.text();
      expect(text).toMatch(/gateway_http_requests_total\{method="GET",route="\/health",status="200"\} \d+/);
    });
  });

  describe("/metrics with METRICS_TOKEN", () => {
    it("needs exactly that bearer token: wrong, shorter and longer ones get 401 Form A", async () => {
      const guarded = await startTestGateway({ env: { METRICS_TOKEN: "m3trics-token" } });
      try {
        for (const authorization of [
          undefined,
          "Bearer wrong",
          "Bearer m3trics-token-and-more",
          "Bearer m3trics-tokeN",
          "m3trics-token",
        ]) {
          const res = await guarded.request("/metrics", authorization ? { headers: { authorization } } : {});
          expect(res.status, authorization).toBe(401);
          expect(await res.json()).toEqual({ error: expect.stringMatching(/METRICS_TOKEN/) });
        }
        const ok = await guarded.request("/metrics", { headers: { authorization: "Bearer m3trics-token" } });
        expect(ok.status).toBe(200);
        expect(await ok.text()).toMatch(/gateway_http_requests_total/);
      } finally {
        await guarded.close();
      }
    });
  });

  describe("authentication", () => {
    it("accepts the key by header, bearer token and query parameter", async () => {
      const { key } = await gw.key();
      const byHeader = await gw.request("/v1/key", { headers: { "X-API-Key": key } });
      const byBearer = await gw.request("/v1/key", { headers: { Authorization: `Bearer ${key}` } });
      const byQuery = await gw.request(`/v1/key?api_key=${key}`);
      for (const res of [byHeader, byBearer, byQuery]) expect(res.status).toBe(200);
    });

    it("refuses a missing, malformed, unknown, revoked or expired key with 401 Form A", async () => {
      const revoked = await gw.key();
      const record = await revokeKey(gw.rt.db, revoked.id, "test");
      gw.rt.keys.remember(record!);
      const expired = await gw.key({ expiresAt: new Date(Date.now() - 1000) });
      const cases: Array<[RequestInit, RegExp]> = [
        [{}, /missing API key/],
        [{ headers: { "X-API-Key": "sk_nope" } }, /invalid API key/],
        [{ headers: { "X-API-Key": `sk_${"x".repeat(43)}` } }, /invalid API key/],
        [{ headers: { Authorization: "Basic abc" } }, /Bearer/],
        [{ headers: { "X-API-Key": revoked.key } }, /revoked/],
        [{ headers: { "X-API-Key": expired.key } }, /expired/],
      ];
      for (const [init, message] of cases) {
        const res = await gw.request("/v1/key", init);
        expect(res.status).toBe(401);
        const body = await res.json();
        expect(body).toEqual({ error: expect.stringMatching(message) });
        expect(res.headers.get("x-request-id")).toBeTruthy();
      }
    });

    it("refuses two different keys in one request", async () => {
      const a = await gw.key();
      const b = await gw.key();
      const res = await gw.request(`/v1/key?api_key=${b.key}`, { headers: { "X-API-Key": a.key } });
      expect(res.status).toBe(400);
    });

    it("gives 403 to a valid key outside its scopes, and lets it read its own key info", async () => {
      const { key } = await gw.key({ scopes: ["data"] });
      const res = await gw.request("/v1/probe/echo", json({ name: "x", count: 1 }, key));
      expect(res.status).toBe(403);
      expect((await res.json()).error).toMatch(/no access to 'llm'/);
      expect((await gw.request("/v1/key", { headers: { "X-API-Key": key } })).status).toBe(200);
      const scoped = await gw.key({ scopes: ["llm"] });
      expect((await gw.request("/v1/probe/echo", json({ name: "x", count: 1 }, scoped.key))).status).toBe(200);
    });

    it("lets optional-key routes through without a key but not with a bad one", async () => {
      const anonymous = await gw.request("/v1/probe/optional");
      expect(await anonymous.json()).toEqual({ keyed: false });
      expect(anonymous.headers.get("x-ratelimit-limit")).toBeNull();
      const { key } = await gw.key();
      const keyed = await gw.request("/v1/probe/optional", { headers: { "X-API-Key": key } });
      expect(await keyed.json()).toEqual({ keyed: true });
      expect(keyed.headers.get("x-ratelimit-limit")).toBe("100");
      expect((await gw.request("/v1/probe/optional", { headers: { "X-API-Key": "sk_bad" } })).status).toBe(401);
    });
  });

  describe("limits", () => {
    /**
     * The minute window slides: a new minute weighs the last one's count, so requests that straddle a
     * minute's end see `remaining` move by that weighting rather than one a request. Starting well inside
     * a minute keeps the count exact on a slow machine (the 101 requests take well under the margin).
     */
    async function wellInsideAMinute(marginMs = 15_000): Promise<void> {
      const left = 60_000 - (Date.now() % 60_000);
      if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
    }

    it("gives the 101st request in a minute a Form B 429 with Retry-After", async () => {
      await wellInsideAMinute();
      const { key } = await gw.key();
      const headers = { "X-API-Key": key };
      for (let i = 1; i <= 100; i++) {
        const res = await gw.request("/v1/key", { headers });
        expect(res.status).toBe(200);
        expect(res.headers.get("x-ratelimit-limit")).toBe("100");
        expect(res.headers.get("x-ratelimit-remaining")).toBe(String(100 - i));
        expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
      }
      const res = await gw.request("/v1/key", { headers });
      expect(res.status).toBe(429);
      const body = await res.json();
      expect(body.error.code).toBe("rate_limit_exceeded");
      expect(body.error.message).toMatch(/midnight UTC/);
      expect(Number.isInteger(body.error.retry_after)).toBe(true);
      expect(body.error.retry_after).toBeGreaterThanOrEqual(1);
      expect(res.headers.get("retry-after")).toBe(String(body.error.retry_after));
      expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    });

    it("applies a per-key daily limit and says it resets at midnight UTC", async () => {
      const { key } = await gw.key({ day: 2 });
      const headers = { "X-API-Key": key };
      expect((await gw.request("/v1/key", { headers })).headers.get("x-ratelimit-limit")).toBe("2");
      expect((await gw.request("/v1/key", { headers })).status).toBe(200);
      const res = await gw.request("/v1/key", { headers });
      expect(res.status).toBe(429);
      const body = await res.json();
      expect(body.error.message).toMatch(/daily limit of 2 requests is used up; it resets at midnight UTC/);
      const midnight = Math.ceil(Date.now() / 86_400_000) * 86_400;
      expect(Number(res.headers.get("x-ratelimit-reset"))).toBe(midnight);
    });

    it("holds a key to its concurrency limit", async () => {
      const { key } = await gw.key({ concurrency: 3 });
      const headers = { "X-API-Key": key };
      const results = await Promise.all(
        Array.from({ length: 5 }, () => gw.request("/v1/probe/slow?ms=300", { headers })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const refused = await results.find((r) => r.status === 429)!.json();
      expect(refused.error.message).toMatch(/concurrent/);
      expect((await gw.request("/v1/probe/slow?ms=0", { headers })).status).toBe(200);
    });
  });

  describe("errors", () => {
    it("names the field that failed validation", async () => {
      const { key } = await gw.key();
      const res = await gw.request("/v1/probe/echo", json({ name: "x", count: 99 }, key));
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/count/);
      const missing = await gw.request("/v1/probe/echo", json({ count: 1 }, key));
      expect((await missing.json()).error).toMatch(/name/);
    });

    it("answers malformed JSON with 400, not 500", async () => {
      const { key } = await gw.key();
      const res = await gw.request("/v1/probe/echo", json("{not json", key));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: expect.stringMatching(/JSON/i) });
    });

    it("answers unknown routes 404 and wrong methods 405 with Allow", async () => {
      const notFound = await gw.request("/v1/nothing-here");
      expect(notFound.status).toBe(404);
      expect(await notFound.json()).toEqual({ error: expect.stringContaining("/v1/nothing-here") });
      const wrong = await gw.request("/v1/key", { method: "DELETE" });
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get("allow")).toContain("GET");
      expect(await wrong.json()).toEqual({ error: expect.any(String) });
    });

    it("refuses bodies over the cap with 413", async () => {
      const small = await startTestGateway({ env: { MAX_BODY_BYTES: "1024" } });
      try {
        addProbeRoutes(small.app);
        const { key } = await small.key();
        const res = await small.request("/v1/probe/echo", json({ name: "x".repeat(5000), count: 1 }, key));
        expect(res.status).toBe(413);
        expect((await res.json()).error).toMatch(/too large/);
      } finally {
        await small.close();
      }
    });

    it("turns an unexpected exception into a 500 with the request id and no internals", async () => {
      const { key } = await gw.key();
      const res = await gw.request("/v1/probe/boom", { headers: { "X-API-Key": key } });
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(text).not.toMatch(/hunter2|at .*\.ts/);
      expect(JSON.parse(text).error).toContain(res.headers.get("x-request-id"));
    });
  });

  describe("metering", () => {
    it("writes one usage event per keyed request, with rollups, last use and /v1/usage agreeing", async () => {
      const { key, id } = await gw.key({ minute: 1000 });
      const headers = { "X-API-Key": key };
      for (let i = 0; i < 7; i++) await gw.request("/v1/key", { headers });
      await gw.request("/v1/probe/echo", json({ name: "n", count: 50 }, key));
      await gw.request("/v1/probe/echo", json({ name: "n", count: 5 }, key));

      const beforeFlush = await (await gw.request("/v1/usage", { headers })).json();
      expect(beforeFlush.today.requests).toBe(9);

      await gw.rt.meter.flush();
      const events = await gw.rt.db.prisma.usageEvent.findMany({ where: { keyId: id } });
      expect(events).toHaveLength(10);
      expect(events.filter((e) => e.route === "/v1/key")).toHaveLength(7);
      const echo = events
        .filter((e) => e.route === "/v1/probe/echo")
        .map((e) => e.status)
        .sort();
      expect(echo).toEqual([200, 400]);
      expect(events.every((e) => e.bytesOut > 0 && e.method && e.requestId)).toBe(true);

      const rollups = await gw.rt.db.prisma.usageDaily.findMany({ where: { keyId: id } });
      expect(rollups.reduce((n, r) => n + r.requests, 0)).toBe(10);
      const row = await gw.rt.db.prisma.apiKey.findUnique({ where: { id } });
      expect(row?.lastUsedAt).toBeInstanceOf(Date);

      const usage = await (await gw.request("/v1/usage", { headers })).json();
      expect(usage.today.requests).toBe(10);
      expect(usage.today.client_errors).toBe(1);
      expect(usage.month.requests).toBe(10);
      expect(usage.by_route.find((r: { route: string }) => r.route === "/v1/key").requests).toBe(7);
    });

    it("meters 429s and does not meter requests without a valid key", async () => {
      const { key, id } = await gw.key({ minute: 1 });
      await gw.request("/v1/key", { headers: { "X-API-Key": key } });
      await gw.request("/v1/key", { headers: { "X-API-Key": key } });
      await gw.request("/v1/key", { headers: { "X-API-Key": "sk_invalid" } });
      await gw.rt.meter.flush();
      const statuses = (await gw.rt.db.prisma.usageEvent.findMany({ where: { keyId: id } }))
        .map((e) => e.status)
        .sort();
      expect(statuses).toEqual([200, 429]);
    });
  });
});
