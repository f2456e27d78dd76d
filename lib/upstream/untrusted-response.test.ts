import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { listen } from "../../test/support/listen.ts";
import { errorResponse } from "../errors.ts";
import {
  keptPageHeaders,
  keptUpstreamHeaders,
  refuseServiceWorkerScript,
  untrustedContent,
} from "./untrusted-response.ts";

describe("untrusted upstream responses", () => {
  it("keeps only the headers needed to read and cache a body", () => {
    const kept = keptUpstreamHeaders({
      "Content-Type": "text/html",
      "content-length": "12",
      etag: '"x"',
      "service-worker-allowed": "/",
      "content-security-policy": "script-src *",
      "access-control-allow-origin": "*",
      link: "</sw.js>; rel=serviceworker",
      refresh: "0; url=https://evil.example/",
      "x-custom": "kept?",
    });
    expect(kept).toEqual({ "content-type": "text/html", "content-length": "12", etag: '"x"' });
  });

  it("gives a screenshot's page its CORS answers too, but nothing a browser would obey", () => {
    const kept = keptPageHeaders({
      "content-type": "font/woff2",
      "access-control-allow-origin": "*",
      "service-worker-allowed": "/",
      refresh: "0",
    });
    expect(kept).toEqual({ "content-type": "font/woff2", "access-control-allow-origin": "*" });
  });

  it("refuses a service worker script fetch and nothing else", () => {
    expect(() => refuseServiceWorkerScript("script")).toThrow(/service worker/);
    expect(() => refuseServiceWorkerScript(" Script ")).toThrow(/service worker/);
    expect(() => refuseServiceWorkerScript(undefined)).not.toThrow();
    expect(() => refuseServiceWorkerScript("")).not.toThrow();
  });

  it("the middleware adds the sandbox headers to answers and errors, and answers 403 to a worker fetch", async () => {
    const app = new Hono();
    app.onError((err, c) => errorResponse(err, c, () => {}));
    app.use("*", untrustedContent());
    app.get("/ok", (c) => c.json({ content: "<script>alert(1)</script>" }));
    app.get("/fails", () => {
      throw new Error("boom");
    });
    for (const path of ["/ok", "/fails"]) {
      const res = await app.request(path);
      expect(res.headers.get("content-security-policy"), path).toBe("sandbox; default-src 'none'");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("cross-origin-resource-policy"), path).toBe("same-origin");
    }
    const worker = await app.request("/ok", { headers: { "Service-Worker": "script" } });
    expect(worker.status).toBe(403);
    expect((await worker.json()).error).toMatch(/service worker/);
  });

  it("over a real socket, puts them on every answer Node writes (JSON, errors, a raw Response) and still refuses a worker fetch", async () => {
    const app = new Hono();
    app.onError((err, c) => errorResponse(err, c, () => {}));
    app.use("*", untrustedContent());
    app.get("/ok", (c) => c.json({ content: "<script>alert(1)</script>" }));
    app.get("/page", () => new Response("<h1>upstream</h1>", { headers: { "content-type": "text/html" } }));
    app.get("/fails", () => {
      throw new Error("boom");
    });
    const server = await listen(app.fetch);
    try {
      for (const [path, status] of [
        ["/ok", 200],
        ["/page", 200],
        ["/fails", 500],
      ] as const) {
        const res = await fetch(`${server.url}${path}`);
        expect(res.status, path).toBe(status);
        expect(res.headers.get("content-security-policy"), path).toBe("sandbox; default-src 'none'");
        expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
        expect(res.headers.get("cross-origin-resource-policy"), path).toBe("same-origin");
        await res.arrayBuffer();
      }
      const page = await fetch(`${server.url}/page`);
      expect(page.headers.get("content-type")).toBe("text/html");
      expect(await page.text()).toBe("<h1>upstream</h1>");
      const worker = await fetch(`${server.url}/ok`, { headers: { "Service-Worker": "script" } });
      expect(worker.status).toBe(403);
      await worker.arrayBuffer();
    } finally {
      await server.close();
    }
  });
});
