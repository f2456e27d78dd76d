import http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../test/support/gateway.ts";
import { directRoutes } from "./direct-routes.ts";

/** The gateway as server.ts serves it: the direct routes in front of the Hono app, on a real socket. */
describe("the direct routes", () => {
  let gw: TestGateway;
  let server: http.Server;
  let base: string;
  let appCalls = 0;
  beforeAll(async () => {
    gw = await startTestGateway();
    const app = getRequestListener(gw.app.fetch);
    server = http.createServer(
      directRoutes(gw.rt, (req, res) => {
        appCalls += 1;
        void app(req, res);
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await gw?.close();
  });

  /** The same request answered directly and by the app: status, headers and body must agree. */
  async function both(path: string, headers: Record<string, string>) {
    const before = appCalls;
    const direct = await fetch(`${base}${path}`, { headers });
    const directBody = await direct.json();
    expect(appCalls).toBe(before);
    const viaApp = await gw.request(path, { headers });
    return { direct, directBody, viaApp, appBody: await viaApp.json() };
  }

  const names = (h: Headers) =>
    [...h.keys()].filter((n) => !["date", "connection", "keep-alive", "content-length"].includes(n)).sort();

  it("answers /health as the app does, with the caller's request id", async () => {
    const { direct, directBody, viaApp, appBody } = await both("/health", { "X-Request-Id": "probe-1" });
    expect(direct.status).toBe(200);
    expect(directBody).toEqual(appBody);
    expect(direct.headers.get("x-request-id")).toBe("probe-1");
    expect(names(direct.headers)).toEqual(names(viaApp.headers));
    expect(direct.headers.get("content-type")).toBe("application/json");
  });

  it("answers /v1/key as the app does, counts it in the key's windows, and meters it", async () => {
    const { key, id } = await gw.key({ name: "direct", minute: 50 });
    // The first request reads the key from the database through the app; from then on it is in memory.
    expect((await fetch(`${base}/v1/key`, { headers: { "X-API-Key": key } })).status).toBe(200);
    const { direct, directBody, viaApp, appBody } = await both("/v1/key", { Authorization: `Bearer ${key}` });
    expect(direct.status).toBe(200);
    expect(names(direct.headers)).toEqual(names(viaApp.headers));
    expect(direct.headers.get("x-ratelimit-limit")).toBe("50");
    expect(direct.headers.get("x-ratelimit-remaining")).toBe("48");
    expect(directBody.remaining.minute.remaining).toBe(48);
    expect(appBody.remaining.minute.remaining).toBe(47);
    expect({ ...directBody, remaining: undefined }).toEqual({ ...appBody, remaining: undefined });
    expect(directBody.remaining.concurrency).toEqual({ limit: 10, in_use: 1, remaining: 9 });

    await gw.rt.meter.flush();
    const rows = await gw.rt.db.prisma.usageEvent.findMany({ where: { keyId: id }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.route, r.area, r.status])).toEqual([
      ["/v1/key", "account", 200],
      ["/v1/key", "account", 200],
      ["/v1/key", "account", 200],
    ]);
    expect(rows[1]!.requestId).toBe(direct.headers.get("x-request-id"));
    expect(rows[1]!.bytesOut).toBe(Number(direct.headers.get("content-length")));
    const metrics = await (await gw.request("/metrics")).text();
    expect(metrics).toMatch(/gateway_http_requests_total\{method="GET",route="\/v1\/key",status="200"\} 3\b/);
  });

  it("leaves every other case to the app: no key, an unknown key, a malformed header, two keys, a query, HEAD, a refusal", async () => {
    const { key } = await gw.key({ name: "one a minute", minute: 1 });
    const status = async (path: string, headers: Record<string, string> = {}, method = "GET") => {
      const before = appCalls;
      const res = await fetch(`${base}${path}`, { headers, method });
      await res.arrayBuffer();
      return { status: res.status, byApp: appCalls === before + 1 };
    };
    expect(await status("/v1/key")).toEqual({ status: 401, byApp: true });
    expect(await status("/v1/key", { "X-API-Key": "sk_unknown" })).toEqual({ status: 401, byApp: true });
    expect(await status("/v1/key", { Authorization: "Basic abc" })).toEqual({ status: 401, byApp: true });
    expect(await status("/v1/key", { "X-API-Key": key })).toEqual({ status: 200, byApp: true });
    // Now in memory, and its one request a minute used: the limiter refuses, the app answers the 429.
    const refused = await fetch(`${base}/v1/key`, { headers: { "X-API-Key": key } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect((await refused.json()).error.code).toBe("rate_limit_exceeded");
    expect(await status("/v1/key", { "X-API-Key": key, Authorization: "Bearer sk_other" })).toEqual({
      status: 400,
      byApp: true,
    });
    expect(await status(`/v1/key?api_key=${key}`)).toEqual({ status: 429, byApp: true });
    expect(await status("/health?x=1")).toEqual({ status: 200, byApp: true });
    expect(await status("/health", {}, "HEAD")).toEqual({ status: 200, byApp: true });
  });
});
