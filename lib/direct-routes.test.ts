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

  it("leaves every other request to the app: a query string, HEAD, other paths", async () => {
    const status = async (path: string, method = "GET") => {
      const before = appCalls;
      const res = await fetch(`${base}${path}`, { method });
      await res.arrayBuffer();
      return { status: res.status, byApp: appCalls === before + 1 };
    };
    expect(await status("/health?x=1")).toEqual({ status: 200, byApp: true });
    expect(await status("/health", "HEAD")).toEqual({ status: 200, byApp: true });
    expect(await status("/health/")).toEqual({ status: 200, byApp: true });
    expect(await status("/v1/key")).toEqual({ status: 401, byApp: true });
  });

  it("counts what it answers in the app's request metrics", async () => {
    const scrape = async () =>
      Number(
        /gateway_http_requests_total\{method="GET",route="\/health",status="200"\} (\d+)/.exec(
          await (await gw.request("/metrics")).text(),
        )?.[1] ?? 0,
      );
    const before = await scrape();
    await (await fetch(`${base}/health`)).arrayBuffer();
    expect(await scrape()).toBe(before + 1);
  });
});
