import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { listen, type Listening } from "../../test/support/listen.ts";
import { memoryTracing, spansUnder } from "../../test/support/memory-tracing.ts";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../errors.ts";
import { hasDotSegment, UpstreamClient } from "./client.ts";

describe("UpstreamClient against a loopback service", () => {
  let server: Listening;
  let origin: string;
  const hits = new Map<string, number>();
  const count = (path: string) => hits.set(path, (hits.get(path) ?? 0) + 1);
  const traceparents: (string | undefined)[] = [];

  beforeAll(async () => {
    const app = new Hono();
    let flaky = 0;
    app.get("/ok", async (c) => {
      count("/ok");
      await new Promise((r) => setTimeout(r, 50));
      return c.json({ q: c.req.query("q") ?? null, ua: c.req.header("user-agent") });
    });
    app.get("/flaky", (c) => {
      count("/flaky");
      return ++flaky % 3 === 0 ? c.json({ ok: true }) : c.json({ error: "busy" }, 503);
    });
    app.get("/limited", (c) => {
      count("/limited");
      return c.json({ error: "slow down" }, 429, { "retry-after": "0" });
    });
    app.get("/down", (c) => {
      count("/down");
      return c.text("boom", 500);
    });
    app.get("/slow", async (c) => {
      await new Promise((r) => setTimeout(r, 500));
      return c.json({});
    });
    app.get("/garbled", (c) => c.text("<html>not json"));
    app.get("/echo-trace", (c) => {
      traceparents.push(c.req.header("traceparent"));
      return c.json({});
    });
    app.get("/bad", (c) => c.json({ error: "bad query" }, 400));
    server = await listen(app.fetch);
    origin = server.url;
  });
  afterAll(() => server?.close());

  const client = (extra: Partial<ConstructorParameters<typeof UpstreamClient>[0]> = {}) =>
    new UpstreamClient({ name: "demo", origin, ...extra });

  it("caches answers and coalesces identical in-flight lookups: one upstream hit for many calls", async () => {
    const c = client();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => c.get<{ q: string }>({ path: "/ok", query: { q: "x" } })),
    );
    expect(new Set(results.map((r) => r.q))).toEqual(new Set(["x"]));
    await c.get({ path: "/ok", query: { q: "x" } });
    expect(hits.get("/ok")).toBe(1);
    await c.get({ path: "/ok", query: { q: "y" } });
    expect(hits.get("/ok")).toBe(2);
    expect(results[0]).toMatchObject({ ua: expect.stringMatching(/^UnifiedAPIGateway\//) });
  });

  it("retries 5xx with backoff and succeeds when the service recovers", async () => {
    const c = client({ cacheTtlMs: 0 });
    expect(await c.get({ path: "/flaky" })).toEqual({ ok: true });
    expect(hits.get("/flaky")).toBe(3);
  });

  it("maps failures: 429 → 503, 5xx → 502 after retries, timeout → 504, garbage → 502, 4xx → 400", async () => {
    const c = client({ cacheTtlMs: 0, retries: 1, timeoutMs: 100, breaker: { failures: 100, cooldownMs: 1000 } });
    const status = async (path: string) => {
      try {
        await c.get({ path });
        return 200;
      } catch (err) {
        return (err as GatewayError).status;
      }
    };
    expect(await status("/limited")).toBe(503);
    expect(hits.get("/limited")).toBe(2);
    expect(await status("/down")).toBe(502);
    expect(await status("/slow")).toBe(504);
    expect(await status("/garbled")).toBe(502);
    expect(await status("/bad")).toBe(400);
  });

  it("opens the circuit after repeated failures and fails fast with 503", async () => {
    const c = client({ cacheTtlMs: 0, retries: 0, breaker: { failures: 2, cooldownMs: 10_000 } });
    const before = hits.get("/down") ?? 0;
    for (let i = 0; i < 2; i++) await expect(c.get({ path: "/down" })).rejects.toMatchObject({ status: 502 });
    await expect(c.get({ path: "/down" })).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/temporarily unavailable/),
    });
    expect(hits.get("/down")).toBe(before + 2);
  });

  it("answers a 429 with 503 without counting it towards the circuit: it is pacing, not failure", async () => {
    const c = client({ cacheTtlMs: 0, retries: 0, breaker: { failures: 2, cooldownMs: 10_000 } });
    for (let i = 0; i < 4; i++)
      await expect(c.get({ path: "/limited" })).rejects.toMatchObject({ status: 503, message: /rate limiting/ });
    // Still closed: a 500 is tried, and only the second failure opens it.
    const before = hits.get("/down") ?? 0;
    await expect(c.get({ path: "/down" })).rejects.toMatchObject({ status: 502 });
    await expect(c.get({ path: "/down" })).rejects.toMatchObject({ status: 502 });
    await expect(c.get({ path: "/down" })).rejects.toMatchObject({ status: 503, message: /temporarily unavailable/ });
    expect(hits.get("/down")).toBe(before + 2);
  });

  it("traced, each request is a CLIENT span the service receives as its traceparent, naming no URL or query", async () => {
    const t = memoryTracing();
    const root = t.root();
    const c = client({ cacheTtlMs: 0, retries: 1, breaker: { failures: 100, cooldownMs: 1000 } }).traced(root);
    const seen = traceparents.length;
    await c.get({ path: "/echo-trace", query: { q: "secret search", api_key: "k-123" } });
    await expect(c.get({ path: "/down" })).rejects.toMatchObject({ status: 502 });
    root.end();
    const spans = await t.spans();
    const requests = spansUnder(
      spans,
      spans.find((s) => s.name === "test")!,
    );
    expect(requests.map((s) => [s.name, s.kind, s.attributes["http.response.status_code"], s.status.code])).toEqual([
      ["GET demo", SpanKind.CLIENT, 200, SpanStatusCode.UNSET],
      ["GET demo", SpanKind.CLIENT, 500, SpanStatusCode.ERROR],
      ["GET demo", SpanKind.CLIENT, 500, SpanStatusCode.ERROR],
    ]);
    expect(requests[0]!.attributes).toEqual({
      "http.request.method": "GET",
      "server.address": "127.0.0.1",
      "server.port": Number(new URL(origin).port),
      "gateway.upstream": "demo",
      "http.response.status_code": 200,
    });
    expect(requests[2]!.attributes).toMatchObject({ "http.request.resend_count": 1, "error.type": "500" });
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toMatch(/secret|k-123|echo-trace/);
    const { traceId, spanId } = requests[0]!.spanContext();
    expect(traceparents[seen]).toBe(`00-${traceId}-${spanId}-01`);
    // Untraced, the client sends none.
    await client({ cacheTtlMs: 0 }).get({ path: "/echo-trace" });
    expect(traceparents.at(-1)).toBeUndefined();
  });

  it("honours the UPSTREAM_<NAME>_URL override", async () => {
    process.env.UPSTREAM_ELSEWHERE_URL = origin;
    try {
      const c = new UpstreamClient({ name: "elsewhere", origin: "https://unreachable.invalid" });
      expect(c.url({ path: "/ok", query: { q: "z", empty: "" } })).toBe(`${origin}/ok?q=z`);
    } finally {
      delete process.env.UPSTREAM_ELSEWHERE_URL;
    }
  });
});

describe("hasDotSegment", () => {
  it("finds '.' and '..' segments, plain or percent-encoded, and nothing else", () => {
    for (const path of [
      "/repos/../user",
      "/repos/./x",
      "/repos/%2e%2E/user",
      "/a/%2e",
      "..",
      "/a/..?x",
      "/a/.#x",
      "/a\\..\\user",
    ])
      expect(hasDotSegment(path), path).toBe(true);
    for (const path of [
      "/repos/honojs/hono.js",
      "/repos/a..b/c",
      "/web/2020id_/https://example.com/",
      "/search?q=..",
      "/search?..",
      "/web/2020id_/https://example.com/?a=/../b#/./",
    ])
      expect(hasDotSegment(path), path).toBe(false);
  });
});
