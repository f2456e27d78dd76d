import http from "node:http";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startFakeWikipedia } from "../../../test/fakes/data-sources.ts";
import type { TestGateway } from "../../../test/support/gateway.ts";
import { listen, type Listening } from "../../../test/support/listen.ts";
import { useGateway } from "../../../test/support/use-gateway.ts";
import { plainLane, planFor } from "./plain-lane.ts";

/**
 * The gateway as server.ts serves it: the plain lane in front of the Hono app on a real socket, against
 * the same app answering alone on another. Every answer the lane gives must be the app's: status, body
 * and header names, errors included; what it does not answer must reach the app.
 */
describe("the plain lane", () => {
  const t = useGateway({
    fakes: async () => [await startFakeWikipedia()],
    env: ([wiki]) => ({ UPSTREAM_WIKIPEDIA_URL: wiki.url }),
  });
  let gw: TestGateway;
  let lane: Listening<http.Server>;
  let alone: Listening;
  let laneUrl: string;
  let appUrl: string;
  let appCalls = 0;
  let key: string;

  beforeAll(async () => {
    gw = t.gw;
    const app = getRequestListener(gw.app.fetch);
    lane = await listen(
      http.createServer(
        plainLane(gw.rt, gw.app, (req, res) => {
          appCalls += 1;
          void app(req, res);
        }),
      ),
    );
    alone = await listen(gw.app.fetch);
    laneUrl = lane.url;
    appUrl = alone.url;
    key = t.key;
  });
  afterAll(async () => {
    await lane?.close();
    await alone?.close();
  });

  const names = (h: Headers) =>
    [...h.keys()].filter((n) => !["date", "connection", "keep-alive", "content-length"].includes(n)).sort();

  /** The request through the lane (which must answer it itself) and to the app alone. */
  async function both(path: string, headers: Record<string, string> = {}) {
    const before = appCalls;
    const viaLane = await fetch(`${laneUrl}${path}`, { headers });
    const laneText = await viaLane.text();
    expect(appCalls, "answered by the lane").toBe(before);
    const viaApp = await fetch(`${appUrl}${path}`, { headers });
    const appText = await viaApp.text();
    expect(viaLane.status).toBe(viaApp.status);
    expect(names(viaLane.headers)).toEqual(names(viaApp.headers));
    expect(viaLane.headers.get("content-type")).toBe(viaApp.headers.get("content-type"));
    expect(Number(viaLane.headers.get("content-length"))).toBe(Buffer.byteLength(laneText));
    return { viaLane, lane: JSON.parse(laneText) as Record<string, unknown>, app: JSON.parse(appText) as unknown };
  }

  it("answers GET /v1/key as the app does, with the caller's request id and the limit headers", async () => {
    const { viaLane, lane: body, app } = await both("/v1/key", { "X-API-Key": key, "X-Request-Id": "lane-1" });
    expect(viaLane.status).toBe(200);
    expect(viaLane.headers.get("x-request-id")).toBe("lane-1");
    expect(viaLane.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    // The windows count each request: the two answers differ by the one between them.
    const { remaining: _lane, ...rest } = body;
    const { remaining: _app, ...appRest } = app as Record<string, unknown>;
    expect(rest).toEqual(appRest);
    expect(Object.keys(body.remaining as object)).toEqual(["minute", "day", "concurrency"]);
  });

  it("takes the key from each place the app does, and refuses it as the app does", async () => {
    expect((await both("/v1/key", { Authorization: `Bearer ${key}` })).viaLane.status).toBe(200);
    expect((await both(`/v1/key?api_key=${key}`)).viaLane.status).toBe(200);
    const invalid = await both("/v1/key", { "X-API-Key": "gw_live_not_a_key_at_all_0000000000" });
    expect(invalid.viaLane.status).toBe(401);
    expect(invalid.lane).toEqual(invalid.app);
    expect(invalid.viaLane.headers.get("www-authenticate")).toBe('Bearer realm="gateway"');
    const malformed = await both("/v1/key", { Authorization: "Basic abc" });
    expect(malformed.viaLane.status).toBe(401);
    expect(malformed.lane).toEqual(malformed.app);
    const twoKeys = await both("/v1/key?api_key=other", { "X-API-Key": key });
    expect(twoKeys.viaLane.status).toBe(400);
    expect(twoKeys.lane).toEqual(twoKeys.app);
  });

  it("refuses a key outside its scopes (403) and one over its minute limit (429, Form B)", async () => {
    const scoped = (await gw.key({ scopes: ["llm"] })).key;
    const outOfScope = await both("/v1/data/wikipedia/search?q=ada", { "X-API-Key": scoped });
    expect(outOfScope.viaLane.status).toBe(403);
    expect(outOfScope.lane).toEqual(outOfScope.app);

    const once = (await gw.key({ minute: 1 })).key;
    const before = appCalls;
    const first = await fetch(`${laneUrl}/v1/key`, { headers: { "X-API-Key": once } });
    expect(first.status).toBe(200);
    const limited = await fetch(`${laneUrl}/v1/key`, { headers: { "X-API-Key": once } });
    expect(appCalls).toBe(before);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limit_exceeded");
    const byApp = await fetch(`${appUrl}/v1/key`, { headers: { "X-API-Key": once } });
    expect(byApp.status).toBe(429);
    expect(names(limited.headers)).toEqual(names(byApp.headers));
  });

  it("answers a data search with the untrusted-content headers and the app's validation errors", async () => {
    const ok = await both("/v1/data/wikipedia/search?q=ada&limit=2", { "X-API-Key": key });
    expect(ok.viaLane.status).toBe(200);
    expect(ok.lane).toEqual(ok.app);
    expect(ok.viaLane.headers.get("content-security-policy")).toBeTruthy();
    const generic = await both("/v1/data/arxiv/search?q=", { "X-API-Key": key });
    expect(generic.viaLane.status).toBe(400);
    expect(generic.lane).toEqual(generic.app);
    const badLimit = await both("/v1/data/wikipedia/search?q=ada&limit=lots", { "X-API-Key": key });
    expect(badLimit.viaLane.status).toBe(400);
    expect(badLimit.lane).toEqual(badLimit.app);
    const unknownSource = await both("/v1/data/nowhere/search?q=ada", { "X-API-Key": key });
    expect(unknownSource.viaLane.status).toBe(400);
    expect(unknownSource.lane).toEqual(unknownSource.app);
    const worker = await both("/v1/data/wikipedia/search?q=ada", { "X-API-Key": key, "Service-Worker": "script" });
    expect(worker.viaLane.status).toBe(403);
    expect(worker.lane).toEqual(worker.app);
  });

  it("answers the AAC symbol searches, pre-serialised, as the app does", async () => {
    for (const path of ["/v1/aac/symbols/search?q=cat&limit=3", "/v1/aac/symbols/local?q=happy&set=mulberry"]) {
      const { viaLane, lane: body, app } = await both(path, { "X-API-Key": key });
      expect(viaLane.status).toBe(200);
      expect(body).toEqual(app);
      expect((body.results as unknown[]).length).toBeGreaterThan(0);
    }
    const tooMany = await both("/v1/aac/symbols/search?q=cat&limit=5000", { "X-API-Key": key });
    expect(tooMany.viaLane.status).toBe(400);
    expect(tooMany.lane).toEqual(tooMany.app);
  });

  it("meters what it answers under the route's template and area, refusals included", async () => {
    const record = vi.spyOn(gw.rt.meter, "record");
    try {
      await (await fetch(`${laneUrl}/v1/data/wikipedia/search?q=ada`, { headers: { "X-API-Key": key } })).text();
      await (await fetch(`${laneUrl}/v1/data/wikipedia/search?limit=x`, { headers: { "X-API-Key": key } })).text();
      const events = record.mock.calls.map(([e]) => e);
      expect(events).toHaveLength(2);
      expect(events[0]).toMatchObject({ method: "GET", route: "/v1/data/wikipedia/search", area: "data", status: 200 });
      expect(events[0]!.bytesOut).toBeGreaterThan(0);
      expect(events[1]).toMatchObject({ route: "/v1/data/wikipedia/search", status: 400 });
    } finally {
      record.mockRestore();
    }
  });

  it("leaves to the app what it does not answer: no key, HEAD, other methods, unplain routes and paths", async () => {
    const byApp = async (path: string, init: RequestInit = {}) => {
      const before = appCalls;
      const res = await fetch(`${laneUrl}${path}`, init);
      await res.arrayBuffer();
      return { status: res.status, byApp: appCalls === before + 1 };
    };
    const keyed = { "X-API-Key": key };
    expect(await byApp("/v1/key")).toEqual({ status: 401, byApp: true });
    expect(await byApp("/v1/key", { method: "HEAD", headers: keyed })).toEqual({ status: 200, byApp: true });
    expect(await byApp("/v1/key", { method: "POST", headers: keyed })).toEqual({ status: 405, byApp: true });
    expect(await byApp("/v1/key/", { headers: keyed })).toEqual({ status: 200, byApp: true });
    expect(await byApp("/v1/data/sources", { headers: keyed })).toEqual({ status: 200, byApp: true });
    expect(await byApp("/v1/data/wiki%70edia/search?q=ada", { headers: keyed })).toMatchObject({ byApp: true });
  });

  it("plans only the routes the app would run as plain ones", () => {
    expect(planFor(gw.app, "/v1/key")).toMatchObject({ route: "/v1/key", area: "account" });
    // The source's own route is registered before the generic one, and is the one Hono runs.
    expect(planFor(gw.app, "/v1/data/wikipedia/search")).toMatchObject({ route: "/v1/data/wikipedia/search" });
    expect(planFor(gw.app, "/v1/data/arxiv/search")).toMatchObject({
      route: "/v1/data/:source/search",
      params: { source: "arxiv" },
      area: "data",
    });
    expect(planFor(gw.app, "/v1/data/sources")).toBeNull();
    expect(planFor(gw.app, "/v1/llm/chat")).toBeNull();
    expect(planFor(gw.app, "/v1/nothing/here")).toBeNull();
  });
});
