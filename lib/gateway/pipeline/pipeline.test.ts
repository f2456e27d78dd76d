import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../../../test/support/gateway.ts";
import { gatewayRoute } from "../http/route.ts";
import { Reply } from "./answer.ts";
import { route } from "./route.ts";

const ok = {
  200: { description: "ok", content: { "application/json": { schema: z.record(z.string(), z.string()) } } },
};

/** The pipeline's answer options, through both adapters: third-party content and a surface's error shape. */
describe("the pipeline's answer options", () => {
  let gw: TestGateway;
  let key: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.key());
    gw.app.mount({
      name: "probe-feed",
      scope: "data",
      paths: ["/v1/probe-feed/*"],
      respond: { untrusted: true },
      routes: [
        route(gatewayRoute("key", { method: "get", path: "/v1/probe-feed/ok", responses: ok }), () => ({
          content: "<script>alert(1)</script>",
        })),
        route(
          gatewayRoute("key", { method: "get", path: "/v1/probe-feed/page", responses: ok }),
          () => new Reply(200, "<h1>upstream</h1>", { "Content-Type": "text/html" }),
        ),
        route(gatewayRoute("key", { method: "get", path: "/v1/probe-feed/fails", responses: ok }), () => {
          throw new Error("boom");
        }),
      ],
    });
    gw.app.mount({
      name: "probe-shaped",
      scope: "llm",
      paths: ["/v1/probe-shaped/*"],
      respond: { errors: (status, body) => ({ shaped: { status, message: body?.error } }) },
      routes: [route(gatewayRoute("key", { method: "get", path: "/v1/probe-shaped/ok", responses: ok }), () => ({}))],
    });
  });
  afterAll(async () => {
    await gw?.close();
  });

  const adapters = [
    ["node", (path: string, init?: RequestInit) => gw.request(path, init)],
    ["fetch", (path: string, init?: RequestInit) => gw.app.fetch(new Request(gw.url + path, init))],
  ] as const;

  it.each(adapters)(
    "puts the sandbox headers on every answer under third-party content, errors included (%s)",
    async (_name, request) => {
      for (const [path, status] of [
        ["/v1/probe-feed/ok", 200],
        ["/v1/probe-feed/page", 200],
        ["/v1/probe-feed/fails", 500],
        ["/v1/probe-feed/nothing", 404],
        ["/v1/probe-feed", 404],
      ] as const) {
        const res = await request(path, { headers: { "X-API-Key": key } });
        expect(res.status, path).toBe(status);
        expect(res.headers.get("content-security-policy"), path).toBe("sandbox; default-src 'none'");
        expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
        expect(res.headers.get("cross-origin-resource-policy"), path).toBe("same-origin");
        await res.arrayBuffer();
      }
      const page = await request("/v1/probe-feed/page", { headers: { "X-API-Key": key } });
      expect(page.headers.get("content-type")).toBe("text/html");
      expect(await page.text()).toBe("<h1>upstream</h1>");
      const worker = await request("/v1/probe-feed/ok", { headers: { "X-API-Key": key, "Service-Worker": "script" } });
      expect(worker.status).toBe(403);
      await worker.arrayBuffer();
    },
  );

  it.each(adapters)("answers errors in the area's shape, unmatched paths under it too (%s)", async (_name, request) => {
    const missing = await request("/v1/probe-shaped/ok");
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      shaped: { status: 401, message: expect.stringMatching(/missing API key/) },
    });
    const unknown = await request("/v1/probe-shaped/nope/", { headers: { "X-API-Key": key } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ shaped: { status: 404 } });
    const plain = await request("/v1/nowhere", { headers: { "X-API-Key": key } });
    expect(await plain.json()).toEqual({ error: "no such endpoint: GET /v1/nowhere" });
  });

  it("answers HEAD with GET's head and no body, through the Node adapter", async () => {
    const res = await gw.request("/v1/probe-shaped/ok", { method: "HEAD", headers: { "X-API-Key": key } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.text()).toBe("");
  });
});
