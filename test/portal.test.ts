import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backendEnv } from "./support/backends.ts";
import { freePort } from "./support/next-build.ts";
import { runKeysCli, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

describe("npm start's server: the portal through Next, the API straight to Hono", () => {
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

  it("shows a browser the portal home, with its stylesheet", async () => {
    const res = await fetch(`${server.url}/`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain("Unified API Gateway");
    const css = /href="(\/_next\/static\/[^"]+\.css)"/.exec(html)?.[1];
    expect(css).toBeTruthy();
    expect((await fetch(`${server.url}${css}`)).status).toBe(200);
  });

  it("gives programs the JSON index at / and the API under /v1", async () => {
    for (const accept of ["application/json", "*/*"]) {
      const res = await fetch(`${server.url}/`, { headers: { accept } });
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect((await res.json()).version).toBe("v1");
    }
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: "ok", version: "1.0.0" });
    expect((await fetch(`${server.url}/v1/capabilities`)).status).toBe(200);
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
  });

  it("answers unknown portal pages from Next with 404", async () => {
    const res = await fetch(`${server.url}/no-such-page`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(404);
  });
});

describe("next start: the same API through Next's route handlers", () => {
  let proc: ChildProcess;
  let url: string;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    env = b.env;
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const { DATABASE_URL: _d, REDIS_URL: _r, ...inherited } = process.env;
    proc = spawn("npx", ["--no-install", "next", "start", "-p", String(port), "-H", "127.0.0.1"], {
      env: { ...inherited, ...env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
      stdio: "ignore",
      detached: true,
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(`${url}/health`)).ok) break;
      } catch {
        if (Date.now() > deadline) throw new Error("next start did not come up");
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  });
  afterAll(async () => {
    if (proc?.pid && proc.exitCode === null) {
      const exited = once(proc, "exit");
      process.kill(-proc.pid, "SIGTERM");
      await exited;
    }
    await cleanup?.();
  });

  it("serves the status endpoints", async () => {
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: "ok", version: "1.0.0" });
    const caps = await (await fetch(`${url}/v1/capabilities`)).json();
    expect(caps.endpoints).toBeGreaterThan(0);
    const doc = await (await fetch(`${url}/openapi.json`)).json();
    expect(doc.openapi).toBe("3.1.0");
  });

  it("serves / as JSON to programs (proxy rewrite) and as the portal to browsers", async () => {
    const json = await fetch(`${url}/`, { headers: { accept: "application/json" } });
    expect((await json.json()).version).toBe("v1");
    const html = await fetch(`${url}/`, { headers: { accept: BROWSER_ACCEPT } });
    expect(await html.text()).toContain("Unified API Gateway");
  });

  it("authenticates and limits keyed routes the same way", async () => {
    const made = await runKeysCli(["create", "--name", "via-next", "--minute", "2"], env);
    expect(made.code, made.stderr).toBe(0);
    const { key } = made.lines[0] as { key: string };
    const headers = { "X-API-Key": key };
    const first = await fetch(`${url}/v1/key`, { headers });
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("2");
    expect((await fetch(`${url}/v1/key`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
    const third = await fetch(`${url}/v1/key?api_key=${key}`);
    expect(third.status).toBe(429);
    expect((await third.json()).error.code).toBe("rate_limit_exceeded");
    expect((await fetch(`${url}/v1/key`)).status).toBe(401);
  });
});

describe("the portal's security headers", () => {
  const pages = ["/", "/docs", "/console/datavis", "/api/auth/signin", "/no-such-page"];
  let server: ServerProcess;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    // An HTTPS public address (behind a TLS-terminating proxy): the portal then also sends HSTS.
    server = await startServerProcess({ ...b.env, PUBLIC_BASE_URL: "https://portal.example.test" });
  });
  afterAll(async () => {
    await server?.stop();
    await cleanup?.();
  });

  it("sends every portal page with its CSP (no framing), nosniff, a referrer policy and HSTS", async () => {
    for (const path of pages) {
      const res = await fetch(`${server.url}${path}`, { headers: { accept: BROWSER_ACCEPT }, redirect: "manual" });
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("object-src 'none'");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("strict-transport-security"), path).toMatch(/^max-age=\d+/);
    }
  });
});
