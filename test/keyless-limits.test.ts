import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { addProbeRoutes } from "./support/probe-routes.ts";

// Every request here comes through app.request, so all share one client address ("unknown").
describe("keyless routes that do real work are limited per client address", () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway({ env: { KEYLESS_RATE_PER_MINUTE: "5", KEYLESS_CONCURRENCY: "1" } });
    addProbeRoutes(gw.app);
    ({ key } = await gw.key());
    // The minute window rolls: requests that straddle a minute boundary weigh less once it passes, so
    // the counting below starts early enough in a minute to finish inside it.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 20_000) await new Promise((r) => setTimeout(r, left + 50));
  }, 60_000);
  afterAll(() => gw?.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    gw.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const text = "Solar panels convert sunlight into electricity. Batteries store energy from solar panels. ".repeat(
    1100,
  );

  it("admits one request at a time, then the minute's allowance, then answers 429 in Form B; /health stays open", async () => {
    const both = await Promise.all([
      post("/v1/utils/text/keywords", { text }),
      post("/v1/utils/text/keywords", { text }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 429]);
    const refused = both.find((r) => r.status === 429)!;
    expect((await refused.json()).error).toMatchObject({
      code: "rate_limit_exceeded",
      message: expect.stringMatching(/at most 1 concurrent/),
    });

    const ok = await post("/v1/utils/format/convert", { content: "# hi" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-ratelimit-limit")).toBe("5");
    expect((await post("/v1/utils/citations/format", { source: { title: "T" } })).status).toBe(200);
    expect((await post("/v1/utils/text/keywords", { text: "one two" })).status).toBe(200);
    // The request refused for concurrency used none of the minute: four counted so far, one left.
    expect((await post("/v1/utils/format/convert", { content: "# again" })).status).toBe(200);

    for (const path of ["/v1/utils/text/keywords", "/v1/utils/format/convert", "/v1/utils/citations/format"]) {
      const res = await post(path, { text: "x", content: "x", source: { title: "T" } });
      expect(res.status, path).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      const body = await res.json();
      expect(body.error).toMatchObject({
        code: "rate_limit_exceeded",
        message: expect.stringMatching(/at most 5 requests per minute/),
      });
      expect(body.error.retry_after).toBeGreaterThan(0);
    }
    expect((await gw.request("/health")).status).toBe(200);
  });

  it("counts a trove dataset page (up to 50,000 rows) against the same allowance; the trove listings stay open", async () => {
    const page = await gw.request("/v1/trove/economic_housing/boston-house-prices?limit=50000");
    expect(page.status).toBe(429);
    expect((await page.json()).error).toMatchObject({ code: "rate_limit_exceeded" });
    expect((await gw.request("/v1/trove/")).status).toBe(200);
    expect((await gw.request("/v1/trove/economic_housing")).status).toBe(200);
  });

  it("applies the per-client limit to an optional-key route called without a key, and the key's own limits with one", async () => {
    expect((await gw.request("/v1/probe/optional-work")).status).toBe(429);
    const keyed = await gw.request("/v1/probe/optional-work", { headers: { "X-API-Key": key } });
    expect(await keyed.json()).toEqual({ keyed: true });
    expect(keyed.headers.get("x-ratelimit-limit")).toBe("100");
  });
});
