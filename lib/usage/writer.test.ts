import { describe, expect, it } from "vitest";
import { backendEnv, databaseBackends } from "../../test/support/backends.ts";
import { useDatabase } from "../../test/support/use-database.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { LATENCY_BUCKETS_MS } from "./latency-histogram.ts";
import type { UsageEventInput } from "./usage-event.ts";
import { databaseAnswers, storableEvent, writeUsage } from "./writer.ts";

const event = (over: Partial<UsageEventInput> = {}): UsageEventInput => ({
  keyId: "key_1",
  requestId: "req",
  method: "POST",
  route: "/v1/llm/chat",
  area: "llm",
  status: 200,
  latencyMs: 12,
  bytesIn: 10,
  bytesOut: 20,
  at: new Date(),
  ...over,
});

describe("storableEvent", () => {
  it("drops NULs and replaces lone surrogates in every text field, and returns a clean event as it is", () => {
    const clean = event({ provider: "xai", model: "grok-4" });
    expect(storableEvent(clean)).toBe(clean);
    expect(
      storableEvent(event({ model: "grok\u0000x", provider: "x\ud800", route: "/v1/\udc00", area: "ll\u0000m" })),
    ).toMatchObject({
      model: "grokx",
      provider: "x\ufffd",
      route: "/v1/\ufffd",
      area: "llm",
    });
  });

  it("leaves out token counts an int column cannot hold, keeping the event", () => {
    const clean = event({ promptTokens: 2_147_483_647, completionTokens: 0 });
    expect(storableEvent(clean)).toBe(clean);
    for (const bad of [3e9, 1.5, -1, Number.NaN]) {
      const stored = storableEvent(event({ promptTokens: bad, completionTokens: 7 }));
      expect(stored.promptTokens).toBeUndefined();
      expect(stored.completionTokens).toBe(7);
    }
  });
});

describe.each(databaseBackends)("writing usage on %s", (backend) => {
  const t = useDatabase(backend);

  it("logs only the logged events, and adds every event into the day's roll-ups and the key's last use", async () => {
    const keyId = "key_writer";
    await t.db.prisma.apiKey.create({ data: { id: keyId, name: "w", prefix: "sk_w", hash: "w", lineageId: keyId } });
    const day = new Date("2026-03-15T10:00:00.000Z");
    const later = new Date("2026-03-15T11:00:00.000Z");
    const llm = { keyId, at: day, provider: "anthropic", model: "claude", promptTokens: 3, completionTokens: 4 };
    await writeUsage(t.db, [
      event({ ...llm, requestId: "a", features: { web_search: 2 }, traceId: "0af7651916cd43dd8448eb211c80319c" }),
      event({ ...llm, requestId: "b", unlogged: true, status: 429, latencyMs: 700 }),
    ]);
    await writeUsage(t.db, [event({ ...llm, requestId: "c", at: later, features: { web_search: 1 } })]);

    const logged = await t.db.prisma.usageEvent.findMany({ where: { keyId }, orderBy: { id: "asc" } });
    expect(logged.map((e) => e.requestId)).toEqual(["a", "c"]);
    // The request's trace, when it was traced; nothing when it was not.
    expect(logged.map((e) => e.traceId)).toEqual(["0af7651916cd43dd8448eb211c80319c", null]);
    const daily = await t.db.prisma.usageDaily.findMany({ where: { keyId } });
    expect(daily).toHaveLength(1);
    expect(daily[0]).toMatchObject({ route: "/v1/llm/chat", area: "llm", requests: 3, status2xx: 2, status4xx: 1 });
    expect(daily[0]).toMatchObject({ status429: 1, latencyMsSum: 724n, tokens: 21n });
    const hist = new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0);
    hist[2] = 2;
    hist[7] = 1;
    expect(daily[0]!.latencyHist).toEqual(hist);
    const provider = await t.db.prisma.usageDailyProvider.findMany({ where: { keyId } });
    expect(provider.map((r) => [r.provider, r.requests, r.promptTokens, r.completionTokens])).toEqual([
      ["anthropic", 3, 9n, 12n],
    ]);
    const model = await t.db.prisma.usageDailyModel.findMany({ where: { keyId } });
    expect(model.map((r) => [r.model, r.requests])).toEqual([["claude", 3]]);
    const feature = await t.db.prisma.usageDailyFeature.findMany({ where: { keyId } });
    expect(feature.map((r) => [r.feature, r.uses])).toEqual([["web_search", 3n]]);
    const key = await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    expect(key.lastUsedAt).toEqual(later);
  });

  it("tells a database that answers from one that does not", async () => {
    expect(await databaseAnswers(t.db)).toBe(true);
    const env = await backendEnv(backend);
    const closed = await openDatabase(loadConfig(env.env));
    await closed.close();
    try {
      expect(await databaseAnswers(closed)).toBe(false);
    } finally {
      await env.cleanup();
    }
  });
});
