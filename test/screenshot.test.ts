import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { presetPixels, SOCIAL_PRESETS } from "../lib/api/screenshot/presets.ts";
import { chromiumIfAny } from "../lib/chromium-path.ts";
import { startFakeSite, startSentinel, startUdpSentinel, testCertificate, type FakeSite } from "./fakes/https-site.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";

/** The browser the gateway will launch (lib/chromium-path.ts), if there is one. */
const CHROMIUM = chromiumIfAny(process.env.CHROMIUM_PATH);
const pngSize = (b64: string) => {
  const png = Buffer.from(b64, "base64");
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bytes: png.length };
};

// CI installs Chromium; a developer machine without one skips rather than fails.
describe.runIf(CHROMIUM !== undefined || process.env.CI)("POST /v1/screenshot/capture in real Chromium", () => {
  let gw: TestGateway;
  let key: string;
  let site: FakeSite;
  let sentinel: Awaited<ReturnType<typeof startSentinel>>;
  let stun: Awaited<ReturnType<typeof startUdpSentinel>>;

  beforeAll(async () => {
    const tlsPair = await testCertificate(["fake.test"]);
    sentinel = await startSentinel(tlsPair);
    stun = await startUdpSentinel();
    site = await startFakeSite(tlsPair, { forbiddenOrigin: `https://127.0.0.1:${sentinel.port}`, stunPort: stun.port });
    gw = await startTestGateway({
      env: {
        PROXY_ALLOW_PRIVATE_FOR_TESTS: `127.0.0.1:${site.port}`,
        UPSTREAM_CA_FILE: site.caFile,
        SCREENSHOT_CONCURRENCY: "1",
        SCREENSHOT_QUEUE: "0",
      },
    });
    key = (await gw.key()).key;
  });
  afterAll(async () => {
    await gw?.close();
    await site?.close();
    await sentinel?.close();
    await stun?.close();
  });

  const capture = (body: unknown) =>
    gw.request("/v1/screenshot/capture", {
      method: "POST",
      headers: { "content-type": "application/json", "X-API-Key": key },
      body: JSON.stringify(body),
    });

  it("Form A: a PNG at the asked size, taller with full_page, while the page's private requests are blocked", async () => {
    const res = await capture({ url: `${site.url}/shot`, width: 1024, height: 600 });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
    const body = await res.json();
    expect(body).toMatchObject({ format: "png", width: 1024, height: 600 });
    expect(pngSize(body.screenshot)).toMatchObject({ width: 1024, height: 600 });
    expect(pngSize(body.screenshot).bytes).toBeGreaterThan(2000);

    const full = await (await capture({ url: `${site.url}/shot`, full_page: true })).json();
    expect(full.width).toBe(1280);
    expect(full.height).toBeGreaterThan(2400);
    expect(sentinel.connections()).toBe(0);
  });

  it("Form B: each preset at its real pixel size", async () => {
    const res = await capture({
      url: `${site.url}/shot`,
      presets: ["og-facebook", "mobile-iphone"],
      waitStrategy: "load",
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.url).toBe(`${site.url}/shot`);
    expect(body.screenshots.map((s: { preset: string }) => s.preset)).toEqual(["og-facebook", "mobile-iphone"]);
    for (const shot of body.screenshots) {
      expect(shot.mimeType).toBe("image/png");
      expect([shot.width, shot.height]).toEqual(Object.values(presetPixels(shot.preset)));
      expect(pngSize(shot.imageData)).toMatchObject(presetPixels(shot.preset));
    }
    expect(sentinel.connections()).toBe(0);
  });

  it("Form B: defaults to every social preset, and captures just the customSelector element", async () => {
    const all = await (await capture({ url: `${site.url}/shot`, extraWaitMs: 0 })).json();
    expect(all.screenshots.map((s: { preset: string }) => s.preset)).toEqual(SOCIAL_PRESETS);
    const element = await (
      await capture({ url: `${site.url}/shot`, presets: ["twitter"], customSelector: "#title" })
    ).json();
    expect(element.screenshots[0].height).toBeLessThan(200);
    const missing = await capture({ url: `${site.url}/shot`, presets: ["twitter"], customSelector: "#nope" });
    expect(missing.status).toBe(400);
  });

  it("a page's WebRTC cannot send UDP around the gateway (no STUN packet reaches a loopback server)", async () => {
    const res = await capture({
      url: `${site.url}/webrtc`,
      presets: ["twitter"],
      waitStrategy: "load",
      extraWaitMs: 1500,
    });
    expect(res.status).toBe(200);
    expect(stun.packets()).toBe(0);
  });

  it("requests that escape the gateway's routing (SharedWorker, prefetch, popup) reach nothing", async () => {
    const res = await capture({
      url: `${site.url}/escape`,
      presets: ["twitter"],
      waitStrategy: "load",
      customSelector: "#blocked",
      extraWaitMs: 1500,
    });
    expect(res.status).toBe(200);
    expect(sentinel.connections()).toBe(0);
  });

  it("refuses private pages, plain HTTP and out-of-range parameters", async () => {
    const cases: Array<[unknown, number]> = [
      [{ url: `https://127.0.0.1:${sentinel.port}/` }, 403],
      [{ url: "https://169.254.169.254/" }, 403],
      [{ url: `https://localhost:${sentinel.port}/` }, 403],
      [{ url: `http://127.0.0.1:${site.port}/shot` }, 400],
      [{ url: `${site.url}/shot`, extraWaitMs: 30_001 }, 400],
      [{ url: `${site.url}/shot`, presets: ["imax"] }, 400],
      [{ url: `${site.url}/shot`, width: 10 }, 400],
    ];
    for (const [body, status] of cases) expect((await capture(body)).status, JSON.stringify(body)).toBe(status);
    expect(sentinel.connections()).toBe(0);
  });

  it("answers 503 when every browser slot is taken and the queue is full", async () => {
    const [a, b] = await Promise.all([
      capture({ url: `${site.url}/slow`, width: 400, height: 300 }),
      new Promise((r) => setTimeout(r, 300)).then(() => capture({ url: `${site.url}/shot`, width: 400, height: 300 })),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(503);
    expect((await b.json()).error).toMatch(/busy/);
  });
});
