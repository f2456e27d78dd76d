import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends, limitBackends } from "../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../test/support/gateway.ts";
import { createTestSession } from "../../test/support/session.ts";
import { latencyBucket, latencyPercentile, LATENCY_BUCKETS_MS, rollUp, type UsageEventInput } from "../gateway/metering.ts";
import { quotaNow, routeArea, usageReport } from "./usage.ts";

const NOW = new Date("2026-03-15T12:00:00Z");

function event(keyId: string, over: Partial<UsageEventInput> = {}): UsageEventInput {
  return { keyId, requestId: "r", method: "GET", route: "/v1/data/:source", status: 200, latencyMs: 20, bytesIn: 0, bytesOut: 10, at: NOW, ...over };
}

describe("latency histograms", () => {
  it("buckets latencies by upper bound and reads percentiles back", () => {
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(5)).toBe(0);
    expect(latencyBucket(6)).toBe(1);
    expect(latencyBucket(99_999)).toBe(LATENCY_BUCKETS_MS.length);
    const events = [...Array(90).fill(20), ...Array(10).fill(700)].map((ms: number) => event("k", { latencyMs: ms }));
    const [row] = rollUp(events);
    expect(latencyPercentile(row!.latencyHist, 0.5)).toBe(25);
    expect(latencyPercentile(row!.latencyHist, 0.95)).toBe(1000);
    expect(latencyPercentile([], 0.5)).toBeNull();
  });

  it("names the area of a route template", () => {
    expect(routeArea("/v1/llm/chat")).toBe("llm");
    expect(routeArea("/v1/data/:source")).toBe("data");
    expect(routeArea("/v1")).toBe("status");
    expect(routeArea("/v1/key")).toBe("account");
    // The OpenAI-compatible surface belongs to the language models.
    expect(routeArea("/v1/chat/completions")).toBe("llm");
  });
});

// Embedded defaults, then PostgreSQL with Redis limits when their URLs are set.
const combos = databaseBackends.map((db, i) => [db, limitBackends[i] ?? "memory"] as const);

describe.each(combos)("usage reports from the rollups (%s, %s limits)", (db, limits) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ db, limits });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("adds histograms and provider tokens across flushes, and reports per user and per key", async () => {
    const { userId } = await createTestSession(gw.rt.db);
    const a = await gw.key({ name: "a" });
    const b = await gw.key({ name: "b" });
    const other = await gw.key({ name: "someone else's" });
    await gw.rt.db.prisma.apiKey.updateMany({ where: { id: { in: [a.id, b.id] } }, data: { userId } });
    const yesterday = new Date(NOW.getTime() - 86_400_000);
    const batches: UsageEventInput[][] = [
      [
        event(a.id, { latencyMs: 3 }),
        event(a.id, { route: "/v1/llm/chat", status: 200, latencyMs: 800, provider: "openai", promptTokens: 10, completionTokens: 5 }),
        event(b.id, { status: 429, latencyMs: 1 }),
        event(other.id),
      ],
      [
        event(a.id, { route: "/v1/llm/chat", status: 502, latencyMs: 40, provider: "openai", promptTokens: 1 }),
        event(a.id, { route: "/v1/llm/chat", latencyMs: 30, provider: "anthropic", promptTokens: 7, completionTokens: 3 }),
        event(b.id, { status: 404, at: yesterday }),
      ],
    ];
    for (const batch of batches) {
      for (const e of batch) gw.rt.meter.record(e);
      await gw.rt.meter.flush();
    }
    const chat = await gw.rt.db.prisma.usageDaily.findUniqueOrThrow({
      where: { keyId_day_route: { keyId: a.id, day: new Date("2026-03-15"), route: "/v1/llm/chat" } },
    });
    expect(chat.requests).toBe(3);
    expect(chat.latencyHist.reduce((x, y) => x + y, 0)).toBe(3);
    expect(chat.latencyHist[latencyBucket(800)]).toBe(1);

    const mine = await usageReport(gw.rt.db, { owner: userId }, NOW);
    expect(mine.daily).toHaveLength(30);
    expect(mine.daily.at(-1)).toMatchObject({ day: "2026-03-15", requests: 5, ok: 3, client: 1, server: 1, limited: 1 });
    expect(mine.daily.at(-2)).toMatchObject({ day: "2026-03-14", requests: 1, client: 1 });
    expect(mine.totals).toMatchObject({ requests: 6, tokens: 26, p50_ms: 25, p95_ms: 1000 });
    expect(mine.areas.map((x) => [x.area, x.requests])).toEqual([
      ["data", 3],
      ["llm", 3],
    ]);
    expect(mine.providers).toEqual([
      { provider: "openai", requests: 2, prompt_tokens: 11, completion_tokens: 5 },
      { provider: "anthropic", requests: 1, prompt_tokens: 7, completion_tokens: 3 },
    ]);
    expect(mine.keys.map((k) => [k.name, k.requests])).toEqual([
      ["a", 4],
      ["b", 2],
    ]);
    expect((await usageReport(gw.rt.db, { owner: userId, keyId: other.id }, NOW)).totals.requests).toBe(0);
    const everyone = await usageReport(gw.rt.db, {}, NOW);
    expect(everyone.keys.find((k) => k.id === b.id)).toMatchObject({ requests: 2, limited: 1, error_rate: 1 });
    expect(everyone.totals.requests).toBeGreaterThanOrEqual(7);
  });

  it("reads what is left today from the limiter without using it", async () => {
    const { userId } = await createTestSession(gw.rt.db);
    const { id, key } = await gw.key({ name: "quota", day: 50 });
    await gw.rt.db.prisma.apiKey.update({ where: { id }, data: { userId } });
    for (let i = 0; i < 3; i++) await gw.request("/v1/key", { headers: { "X-API-Key": key } });
    const first = await quotaNow(gw.rt, userId);
    expect(first).toEqual([expect.objectContaining({ id, day: expect.objectContaining({ limit: 50, remaining: 47 }), minute: { limit: 100, remaining: 97 } })]);
    expect(await quotaNow(gw.rt, userId)).toEqual(first);
  });
});
