import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinnedRequest, resolveOnce } from "./pinned-request.ts";

describe("pinnedRequest", () => {
  let server: http.Server;
  let port: number;
  const seen: Array<{ host?: string; method?: string; body: string }> = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        seen.push({ host: req.headers.host, method: req.method, body });
        if (req.url === "/redirect") res.writeHead(302, { location: "http://elsewhere.test/" }).end();
        else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it("connects to the given address whatever the name, keeping the name in Host", async () => {
    const res = await pinnedRequest(
      new URL(`http://runner.test:${port}/api/delete`),
      { address: "127.0.0.1", family: 4 },
      { method: "DELETE", body: "{}", timeoutMs: 2000 },
    );
    expect(await res.json()).toEqual({ ok: true });
    expect(seen.at(-1)).toEqual({ host: `runner.test:${port}`, method: "DELETE", body: "{}" });
  });

  it("does not follow redirects, and answers 502 when the address refuses", async () => {
    const res = await pinnedRequest(
      new URL(`http://runner.test:${port}/redirect`),
      { address: "127.0.0.1", family: 4 },
      { timeoutMs: 2000 },
    );
    expect(res.status).toBe(302);
    await res.body?.cancel();
    const closed = pinnedRequest(
      new URL("http://runner.test:1/"),
      { address: "127.0.0.1", family: 4 },
      { timeoutMs: 2000 },
    );
    await expect(closed).rejects.toMatchObject({ status: 502 });
  });

  it("answers 504 when the address says nothing within the time, 502 when the caller's signal stops it", async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const at = new URL(`http://runner.test:${(silent.address() as AddressInfo).port}/`);
    try {
      await expect(pinnedRequest(at, { address: "127.0.0.1", family: 4 }, { timeoutMs: 100 })).rejects.toMatchObject({
        status: 504,
      });
      const caller = new AbortController();
      const pending = pinnedRequest(
        at,
        { address: "127.0.0.1", family: 4 },
        { signal: caller.signal, timeoutMs: 60_000 },
      );
      setTimeout(() => caller.abort(), 50);
      await expect(pending).rejects.toMatchObject({ status: 502 });
    } finally {
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  });

  it("resolves a name once, an IP literal as itself, and a failed lookup as 502", async () => {
    expect(await resolveOnce("[::1]")).toEqual({ address: "::1", family: 6 });
    expect(await resolveOnce("a.test", async () => [{ address: "192.0.2.1", family: 4 }])).toEqual({
      address: "192.0.2.1",
      family: 4,
    });
    await expect(resolveOnce("a.test", async () => Promise.reject(new Error("NXDOMAIN")))).rejects.toMatchObject({
      status: 502,
    });
  });
});
