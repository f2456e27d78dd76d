import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends, limitBackends } from "../../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../../test/support/gateway.ts";
import { createTestSession } from "../../../test/support/session.ts";
import { LATENCY_BUCKETS_MS, latencyBucket } from "../../usage/latency-histogram.ts";
import type { UsageEventInput } from "../../usage/usage-event.ts";
import { cacheSummary, describeTotals, STATUS_CLASSES } from "./summary.ts";
import { presetPeriod } from "./period.ts";
import { cacheSavings, quotaNow, reportFor, usageQuery, usageReport } from "./report.ts";
import { EVENT_TIME, usageEvent } from "../../usage/test-events.ts";

describe("usage in words", () => {
  it("words the totals so their parts add up, with percentiles labelled as estimates", () => {
    const totals = { requests: 43, ok: 37, client: 2, server: 2, limited: 2, p50_ms: 23, p95_ms: 64, tokens: 0 };
    const words = describeTotals({ totals, latency_buckets_ms: LATENCY_BUCKETS_MS });
    expect(words.breakdown).toBe("43 requests: 37 succeeded, 2 client errors, 2 server errors, 2 rate limited.");
    expect(words).toMatchObject({ p50: "≈ 23 ms", p95: "≈ 64 ms" });
    expect(
      describeTotals({ totals: { ...totals, p95_ms: 30_000, p50_ms: null }, latency_buckets_ms: LATENCY_BUCKETS_MS }),
    ).toMatchObject({
      p50: "—",
      p95: "over 30 s",
    });
  });
});

// Embedded defaults, then PostgreSQL with Redis limits when their URLs are set.
const combos = databaseBackends.map((db, i) => [db, limitBackends[i] ?? "memory"] as const);

describe.each(combos)("usage reports from the usage reader (%s, %s limits)", (db, limits) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ db, limits });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("adds histograms and provider tokens across flushes, and reports per user, per key and per recorded area", async () => {
    const { userId } = await createTestSession(gw.rt.db);
    const a = await gw.key({ name: "a" });
    const b = await gw.key({ name: "b" });
    const other = await gw.key({ name: "someone else's" });
    await gw.rt.db.prisma.apiKey.updateMany({ where: { id: { in: [a.id, b.id] } }, data: { userId } });
    const yesterday = new Date(EVENT_TIME.getTime() - 86_400_000);
    const batches: UsageEventInput[][] = [
      [
        usageEvent(a.id, { latencyMs: 3 }),
        usageEvent(a.id, {
          route: "/v1/llm/chat",
          area: "llm",
          status: 200,
          latencyMs: 800,
          provider: "openai",
          promptTokens: 10,
          completionTokens: 5,
        }),
        usageEvent(b.id, { status: 429, latencyMs: 1 }),
        usageEvent(other.id),
      ],
      [
        usageEvent(a.id, {
          route: "/v1/llm/chat",
          area: "llm",
          status: 502,
          latencyMs: 40,
          provider: "openai",
          promptTokens: 1,
        }),
        usageEvent(a.id, {
          route: "/v1/llm/chat",
          area: "llm",
          latencyMs: 30,
          provider: "anthropic",
          promptTokens: 7,
          completionTokens: 3,
        }),
        usageEvent(b.id, { status: 404, at: yesterday }),
        // Grouped under the area it was recorded in, which its path does not name.
        usageEvent(other.id, { route: "/v1/generators/:generator/random", area: "create" }),
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

    const mine = await usageReport(gw.rt.db, { owner: userId }, presetPeriod("30d", EVENT_TIME));
    expect(mine.daily).toHaveLength(30);
    // The 429 is rate limited, not also a client error: the classes add up to the requests.
    expect(mine.daily.at(-1)).toMatchObject({
      day: "2026-03-15",
      requests: 5,
      ok: 3,
      client: 0,
      server: 1,
      limited: 1,
    });
    // The charts stack STATUS_CLASSES: their bars reach each row's total, in every chart.
    for (const c of [mine.totals, ...mine.daily, ...mine.areas, ...mine.keys]) {
      expect(STATUS_CLASSES.reduce((n, s) => n + c[s.dataKey], 0)).toBe(c.requests);
    }
    expect(mine.areas.find((a) => a.area === "data")).toMatchObject({ requests: 3, ok: 1, client: 1, limited: 1 });
    expect(mine.daily.at(-2)).toMatchObject({ day: "2026-03-14", requests: 1, client: 1 });
    expect(mine.totals).toMatchObject({ requests: 6, tokens: 26, p50_ms: 25, p95_ms: 850 });
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
    expect(
      (await usageReport(gw.rt.db, { owner: userId, keyId: other.id }, presetPeriod("30d", EVENT_TIME))).totals
        .requests,
    ).toBe(0);
    const everyone = await usageReport(gw.rt.db, {}, presetPeriod("30d", EVENT_TIME));
    expect(everyone.keys.find((k) => k.id === b.id)).toMatchObject({ requests: 2, limited: 1, error_rate: 1 });
    expect(everyone.totals.requests).toBeGreaterThanOrEqual(8);
    expect(everyone.areas.find((x) => x.area === "create")).toMatchObject({ requests: 1, ok: 1 });
    expect(everyone.areas.some((x) => x.area === "generators")).toBe(false);
  });

  it("slices by period, prices each key's calls, and groups logged requests by a caller's tag", async () => {
    const { userId } = await createTestSession(gw.rt.db);
    const k = await gw.key({ name: "tagged" });
    await gw.rt.db.prisma.apiKey.update({ where: { id: k.id }, data: { userId } });
    const llm = { route: "/v1/llm/chat", area: "llm", provider: "openai", model: "gpt-4.1-mini" };
    const tenDaysAgo = new Date(EVENT_TIME.getTime() - 10 * 86_400_000);
    for (const e of [
      usageEvent(k.id, { ...llm, promptTokens: 1000, completionTokens: 100, tags: { feature: "search", user: "u1" } }),
      usageEvent(k.id, { ...llm, promptTokens: 2000, completionTokens: 0, tags: { feature: "search" } }),
      usageEvent(k.id, { ...llm, status: 502, promptTokens: 10, tags: { feature: "summary" } }),
      usageEvent(k.id, { tags: { user: "u2" } }),
      usageEvent(k.id, { ...llm, promptTokens: 500, at: tenDaysAgo, tags: { feature: "search" } }),
    ])
      gw.rt.meter.record(e);
    await gw.rt.meter.flush();
    const ask = (query: Record<string, string>) => reportFor(gw.rt.db, { owner: userId }, query, EVENT_TIME);

    // The last 7 days leave out the call of ten days ago; the last 30 take it in.
    const week = await ask({ range: "7d", key: k.id, tag: "feature" });
    if ("problem" in week) throw new Error(week.problem);
    expect(week.report).toMatchObject({ from: "2026-03-09", to: "2026-03-15", label: "Last 7 days" });
    expect(week.report.daily).toHaveLength(7);
    expect(week.report.totals.requests).toBe(4);
    const month = await ask({ range: "30d", key: k.id });
    if ("problem" in month) throw new Error(month.problem);
    expect(month.report.totals.requests).toBe(5);

    // The key's cost is its models' cost, at the price table's rate.
    const key = week.report.keys.find((x) => x.id === k.id)!;
    expect(key.tokens).toBe(3110);
    expect(key.cost_usd).toBeCloseTo(week.report.models_total.cost_usd, 12);
    expect(key.cost_usd).toBeGreaterThan(0);

    // By tag: each value's requests, failures, tokens and cost; the rows add up to the total.
    expect(week.tags.names).toEqual(["feature", "user"]);
    expect(week.tags.rows.map((r) => [r.value, r.requests, r.failed, r.tokens])).toEqual([
      ["search", 2, 0, 3100],
      ["summary", 1, 1, 10],
    ]);
    expect(week.tags.total).toMatchObject({ requests: 3, failed: 1, tokens: 3110 });
    expect(week.tags.rows[0]!.cost_usd + week.tags.rows[1]!.cost_usd).toBeCloseTo(week.tags.total!.cost_usd, 12);
    expect(week.tags.total!.cost_usd).toBeCloseTo(key.cost_usd, 12);

    // A period in the future, or a tag name no header could carry, is refused in words.
    expect(await ask({ from: "2026-03-10", to: "2026-03-16" })).toEqual({
      problem: "the period cannot end after today (2026-03-15, UTC)",
    });
    expect(await ask({ tag: "no spaces" })).toEqual({
      problem: "tag must be a tag name: 1 to 64 letters, digits, _ . or -",
    });
    // Someone else's key is not the caller's to read: nothing of it shows.
    const other = await gw.key({ name: "not theirs" });
    const foreign = await ask({ key: other.id, tag: "feature" });
    expect(foreign).toMatchObject({ report: { totals: { requests: 0 } }, tags: { names: [], rows: [] } });
  });

  it("reads what is left today from the limiter without using it", async () => {
    const { userId } = await createTestSession(gw.rt.db);
    const { id, key } = await gw.key({ name: "quota", day: 50 });
    await gw.rt.db.prisma.apiKey.update({ where: { id }, data: { userId } });
    for (let i = 0; i < 3; i++) await gw.request("/v1/key", { headers: { "X-API-Key": key } });
    const first = await quotaNow(gw.rt, userId);
    expect(first).toEqual([
      expect.objectContaining({
        id,
        day: expect.objectContaining({ limit: 50, remaining: 47 }),
        minute: { limit: 100, remaining: 97 },
      }),
    ]);
    expect(await quotaNow(gw.rt, userId)).toEqual(first);
  });
});

describe("usageQuery", () => {
  it("takes a key id and refuses text the database cannot store (NUL, lone surrogate) or that no id has", () => {
    expect(usageQuery.safeParse({ key: "key_0123abcd" }).success).toBe(true);
    expect(usageQuery.safeParse({}).success).toBe(true);
    for (const key of ["a\u0000b", "key_\ud800", "", "key id", "x".repeat(101)])
      expect(usageQuery.safeParse({ key }).success).toBe(false);
  });
});

describe("the response cache in the usage report", () => {
  it("sums hits and misses and prices what the hits saved, leaving unpriced models out of the cost", () => {
    const row = { keyId: "k", day: "2026-03-15", provider: "xai", model: "grok-4", misses: 0, savedCompletion: 100 };
    const savings = cacheSavings([
      { ...row, hits: 3, misses: 1, savedPrompt: 1000 },
      { ...row, model: "mystery", hits: 2, savedPrompt: 50, savedCompletion: 0 },
      { ...row, model: "grok-4-fast", hits: 0, misses: 4, savedPrompt: 0, savedCompletion: 0 },
    ]);
    expect(savings).toMatchObject({
      hits: 5,
      misses: 5,
      saved_prompt_tokens: 1050,
      saved_completion_tokens: 100,
      unpriced_hits: 2,
    });
    expect(savings.saved_cost_usd).toBeCloseTo((1000 * 3 + 100 * 15) / 1e6, 12);
    expect(cacheSummary(savings)).toBe(
      "5 of 10 requests that asked for the cache were answered from it (50.0%): 1,150 tokens and about $0.0045 not paid, besides 2 hits of unpriced models.",
    );
    expect(cacheSummary(cacheSavings([]))).toBeNull();
  });
});
