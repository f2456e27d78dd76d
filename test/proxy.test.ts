import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolved } from "../lib/upstream/safe-fetch.ts";
import { startFakeSite, startSentinel, testCertificate, type FakeSite } from "./fakes/https-site.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { listen, type Listening } from "./support/listen.ts";
import { jailNetwork, type NetworkJail } from "./support/network-jail.ts";

// The fetch timeout leaves a busy machine room for a TLS handshake and a redirect (1.5 s did not, with the
// gateway, the fake site and its database sharing one busy thread), and the upstream that is too slow
// never answers at all, so no race of two timers decides the 504.
const PROXY_TIMEOUT_MS = "10000";

type SilentUpstream = Listening<net.Server> & { connections(): number; hangUp(): void };

/** An upstream that accepts connections and never says a word, until hangUp() drops them. */
async function startSilentUpstream(): Promise<SilentUpstream> {
  const sockets = new Set<net.Socket>();
  const silent = await listen(net.createServer((socket) => void sockets.add(socket)));
  const hangUp = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    ...silent,
    connections: () => sockets.size,
    hangUp,
    close: () => {
      hangUp();
      return silent.close();
    },
  };
}

describe("GET/POST /v1/proxy", () => {
  let gw: TestGateway;
  let site: FakeSite;
  let sentinel: Awaited<ReturnType<typeof startSentinel>>;
  let silent: SilentUpstream;
  const lookups: string[] = [];
  let rebindCalls = 0;
  let jail: NetworkJail | undefined;

  beforeAll(async () => {
    jail = jailNetwork();
    const tlsPair = await testCertificate(["fake.test", "rebind.test", "evil.test"]);
    site = await startFakeSite(tlsPair);
    sentinel = await startSentinel(tlsPair);
    silent = await startSilentUpstream();
    gw = await startTestGateway({
      env: {
        PROXY_ALLOW_PRIVATE_FOR_TESTS: `127.0.0.1:${site.port},fake.test:${site.port},rebind.test:${site.port},127.0.0.1:${silent.port}`,
        UPSTREAM_CA_FILE: site.caFile,
        PROXY_TIMEOUT_MS,
        PROXY_MAX_BYTES: String(1024 * 1024),
        PROXY_RATE_PER_MINUTE: "1000",
      },
    });
    const table: Record<string, Resolved[]> = {
      "fake.test": [{ address: "127.0.0.1", family: 4 }],
      "evil.test": [{ address: "127.0.0.1", family: 4 }],
      "metadata.test": [{ address: "169.254.169.254", family: 4 }],
      "mixed.test": [
        { address: "8.8.8.8", family: 4 },
        { address: "10.0.0.7", family: 4 },
      ],
      "v6.test": [{ address: "::1", family: 6 }],
      "mapped.test": [{ address: "::ffff:192.168.0.1", family: 6 }],
    };
    gw.rt.resolveHost = async (host) => {
      lookups.push(host);
      if (host === "rebind.test") {
        // First answer is the allowed origin; any later lookup would point at the sentinel.
        rebindCalls += 1;
        return [{ address: rebindCalls === 1 ? "127.0.0.1" : "127.0.0.2", family: 4 }];
      }
      const answer = table[host];
      if (!answer) throw new Error("NXDOMAIN");
      return answer;
    };
  });
  afterAll(async () => {
    jail?.release();
    await gw?.close();
    await site?.close();
    await sentinel?.close();
    await silent?.close();
  });

  const get = (url: string) => gw.request(`/v1/proxy?url=${encodeURIComponent(url)}`);

  it("fetches a public-style HTTPS page, keeping its content type but no other upstream header (cookies, custom ones)", async () => {
    const res = await get(`https://fake.test:${site.port}/page`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toBe("<h1>hello from the fake site</h1>");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("x-custom")).toBeNull();
    expect(res.headers.get("x-proxy-final-url")).toBe(`https://fake.test:${site.port}/page`);
  });

  it("serves an attacker's HTML sandboxed: no script can run as the gateway's origin, the upstream's own policy is dropped", async () => {
    const res = await get(`https://fake.test:${site.port}/evil.html`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toContain("<script>");
    expect(res.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    for (const name of ["access-control-allow-origin", "x-frame-options", "refresh"])
      expect(res.headers.get(name), name).toBeNull();
  });

  it("never lets a proxied script become a service worker: no Service-Worker-Allowed, and a worker fetch is 403 before any upstream call", async () => {
    const sw = await get(`https://fake.test:${site.port}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get("service-worker-allowed")).toBeNull();
    expect(sw.headers.get("link")).toBeNull();
    expect(sw.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
    const hitsBefore = site.hits.length;
    const url = encodeURIComponent(`https://fake.test:${site.port}/sw.js`);
    for (const method of ["GET", "POST"]) {
      const registering = await gw.request(`/v1/proxy?url=${url}`, { method, headers: { "Service-Worker": "script" } });
      expect(registering.status, method).toBe(403);
      expect((await registering.json()).error, method).toMatch(/service worker/);
    }
    expect(site.hits.length).toBe(hitsBefore);
  });

  it("takes the url from POST query or JSON body, with or without a trailing slash", async () => {
    const viaBody = await gw.request("/v1/proxy/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `https://fake.test:${site.port}/data.json` }),
    });
    expect(viaBody.status).toBe(200);
    expect(await viaBody.json()).toEqual({ ok: true });
    const viaQuery = await gw.request(
      `/v1/proxy?url=${encodeURIComponent(`https://fake.test:${site.port}/data.json`)}`,
      { method: "POST" },
    );
    expect(viaQuery.status).toBe(200);
    expect(
      (await gw.request(`/v1/proxy/?url=${encodeURIComponent(`https://fake.test:${site.port}/page`)}`)).status,
    ).toBe(200);
  });

  it("follows safe redirects and passes upstream statuses through", async () => {
    const res = await get(`https://fake.test:${site.port}/redirect?to=/data.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-proxy-final-url")).toBe(`https://fake.test:${site.port}/data.json`);
    expect((await get(`https://fake.test:${site.port}/missing`)).status).toBe(404);
  });

  it("answers 502 past 5 redirects or the size cap, 504 past the timeout, 502 when the host cannot be resolved", async () => {
    const loop = await get(`https://fake.test:${site.port}/loop`);
    expect(loop.status).toBe(502);
    expect((await loop.json()).error).toMatch(/more than 5 times/);
    const big = await get(`https://fake.test:${site.port}/big`);
    expect(big.status).toBe(502);
    expect((await big.json()).error).toMatch(/larger than/);
    const slow = await get(`https://127.0.0.1:${silent.port}/`);
    expect(slow.status).toBe(504);
    expect((await get("https://nowhere.test/")).status).toBe(502);
  });

  it("connects to the address it checked, never to a second DNS answer (rebinding)", async () => {
    const before = sentinel.connections();
    const res = await get(`https://rebind.test:${site.port}/page`);
    expect(res.status).toBe(200);
    expect(rebindCalls).toBe(1);
    expect(sentinel.connections()).toBe(before);
  });

  it("refuses 40+ hostile URLs with 400/403, and nothing reaches the sentinel", async () => {
    const s = sentinel.port;
    const f = site.port;
    const hostile: Array<[string, 400 | 403]> = [
      ["", 400],
      ["not a url", 400],
      [`http://127.0.0.1:${s}/`, 400],
      [`ftp://127.0.0.1:${s}/`, 400],
      ["javascript:alert(1)", 400],
      ["file:///etc/passwd", 400],
      [`https://user:pw@fake.test:${f}/page`, 400],
      [`https://127.0.0.1:${s}/`, 403],
      [`https://localhost:${s}/`, 403],
      [`https://LOCALHOST:${s}/`, 403],
      [`https://app.localhost:${s}/`, 403],
      [`https://[::1]:${s}/`, 403],
      [`https://0.0.0.0:${s}/`, 403],
      [`https://0:${s}/`, 403],
      [`https://2130706433:${s}/`, 403],
      [`https://0x7f000001:${s}/`, 403],
      [`https://0177.0.0.1:${s}/`, 403],
      [`https://0x7f.0.0.1:${s}/`, 403],
      [`https://127.1:${s}/`, 403],
      [`https://127.000.000.001:${s}/`, 403],
      [`https://127.0.0.1.:${s}/`, 403],
      [`https://127.0.0.2:${s}/`, 403],
      [`https://[::ffff:127.0.0.1]:${s}/`, 403],
      [`https://[0:0:0:0:0:ffff:7f00:1]:${s}/`, 403],
      [`https://[::ffff:a00:1]/`, 403],
      [`https://[64:ff9b::7f00:1]/`, 403],
      [`https://[2002:7f00:1::]/`, 403],
      ["https://10.0.0.1/", 403],
      ["https://0x0a.0x00.0x00.0x01/", 403],
      ["https://172.16.5.4/", 403],
      ["https://192.168.1.1/", 403],
      ["https://169.254.169.254/latest/meta-data/", 403],
      ["https://100.64.0.1/", 403],
      ["https://[fd00::1]/", 403],
      ["https://[fe80::1]/", 403],
      ["https://224.0.0.1/", 403],
      ["https://255.255.255.255/", 403],
      ["https://[::]/", 403],
      ["https://198.18.0.1/", 403],
      ["https://metadata.google.internal/computeMetadata/v1/", 403],
      ["https://metadata/", 403],
      ["https://printer.local/", 403],
      ["https://db.internal/", 403],
      [`https://evil.test:${s}/`, 403],
      ["https://metadata.test/", 403],
      ["https://mixed.test/", 403],
      ["https://v6.test/", 403],
      ["https://mapped.test/", 403],
      [`https://fake.test:${f}/redirect?to=${encodeURIComponent(`https://127.0.0.1:${s}/`)}`, 403],
      [`https://fake.test:${f}/redirect?to=${encodeURIComponent(`https://localhost:${s}/`)}`, 403],
      [`https://fake.test:${f}/redirect?to=${encodeURIComponent("https://169.254.169.254/")}`, 403],
      [`https://fake.test:${f}/redirect?to=${encodeURIComponent(`https://evil.test:${s}/`)}`, 403],
      [`https://fake.test:${f}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${s}/`)}`, 403],
      [`https://fake.test:${f}/redirect?to=${encodeURIComponent(`https://[::ffff:127.0.0.1]:${s}/`)}`, 403],
    ];
    expect(hostile.length).toBeGreaterThanOrEqual(40);
    for (const [url, status] of hostile) {
      const res = url === "" ? await gw.request("/v1/proxy") : await get(url);
      expect(res.status, url).toBe(status);
      expect((await res.json()).error, url).toEqual(expect.any(String));
    }
    expect(sentinel.connections()).toBe(0);
    expect(jail!.dialled).toEqual([]);
  });

  it("believes X-Forwarded-For only from a TRUST_PROXY peer, and limits IPv6 clients by /64", async () => {
    const statuses = async (base: string, forwardedFor: string[]) => {
      const out = [];
      for (const xff of forwardedFor)
        out.push(
          (await fetch(`${base}/v1/proxy?url=https://10.0.0.1/`, { headers: { "X-Forwarded-For": xff } })).status,
        );
      return out;
    };
    // Each gateway listens on loopback through the Node adapter: requests arrive over a real socket (the limiter keys on its peer).
    const untrusting = await startTestGateway({ env: { PROXY_RATE_PER_MINUTE: "2" } });
    const trusting = await startTestGateway({ env: { PROXY_RATE_PER_MINUTE: "2", TRUST_PROXY: "127.0.0.1" } });
    try {
      // A client cannot buy a fresh allowance by inventing addresses when nobody is trusted.
      expect(await statuses(untrusting.url, ["198.51.100.1", "198.51.100.2", "198.51.100.3"])).toEqual([403, 403, 429]);
      // Behind a trusted proxy each forwarded client has its own allowance...
      expect(await statuses(trusting.url, ["198.51.100.1", "198.51.100.2", "198.51.100.1"])).toEqual([403, 403, 403]);
      // ...and what the client itself wrote to the left of the proxy's entry is not believed.
      expect(await statuses(trusting.url, ["203.0.113.50, 198.51.100.1"])).toEqual([429]);
      // One IPv6 /64 is one client, however many of its addresses it uses.
      expect(
        await statuses(trusting.url, ["2001:db8:0:7::1", "2001:db8:0:7::2", "2001:db8:0:7:ffff::9", "2001:db8:0:8::1"]),
      ).toEqual([403, 403, 429, 403]);
      // A proxy that writes the client's port (ip:port) still names that client, not one bucket for everyone.
      expect(
        await statuses(trusting.url, ["198.51.100.9:5555", "198.51.100.9:6666", "198.51.100.9", "198.51.100.10:5555"]),
      ).toEqual([403, 403, 429, 403]);
    } finally {
      await Promise.all([untrusting.close(), trusting.close()]);
    }
    // Two PGlite gateways of its own and fourteen requests: past 30 s on a busy 2-core machine.
  }, 90_000);

  it("caps fetches in flight across all clients (PROXY_MAX_CONCURRENT): 503 with Retry-After, free again once done", async () => {
    const capped = await startTestGateway({
      env: {
        PROXY_ALLOW_PRIVATE_FOR_TESTS: `127.0.0.1:${site.port},127.0.0.1:${silent.port}`,
        UPSTREAM_CA_FILE: site.caFile,
        PROXY_MAX_CONCURRENT: "1",
      },
    });
    try {
      // The one slot is held by a fetch the upstream never answers, for as long as the test likes.
      const before = silent.connections();
      const slow = fetch(`${capped.url}/v1/proxy?url=${encodeURIComponent(`https://127.0.0.1:${silent.port}/`)}`);
      await expect.poll(() => silent.connections(), { timeout: 30_000 }).toBe(before + 1);
      const refused = await fetch(
        `${capped.url}/v1/proxy?url=${encodeURIComponent(`https://127.0.0.1:${site.port}/page`)}`,
      );
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect((await refused.json()).error).toMatch(/limit of 1 fetches at once/);
      silent.hangUp();
      expect((await slow).status).toBe(502);
      expect(
        (await fetch(`${capped.url}/v1/proxy?url=${encodeURIComponent(`https://127.0.0.1:${site.port}/page`)}`)).status,
      ).toBe(200);
    } finally {
      await capped.close();
    }
  });

  it("limits each client address per minute", async () => {
    const limited = await startTestGateway({ env: { PROXY_RATE_PER_MINUTE: "2" } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.request("/v1/proxy?url=https://10.0.0.1/")).status);
      expect(statuses).toEqual([403, 403, 429]);
    } finally {
      await limited.close();
    }
  });
});
