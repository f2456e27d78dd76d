import { describe, expect, it } from "vitest";
import { rollUp, rollUpCache, rollUpFeatures, rollUpModels, rollUpProviders } from "./roll-up.ts";
import type { UsageEventInput } from "./usage-event.ts";

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

describe("roll-ups", () => {
  // Interleaved keys, routes and models, and two UTC days a millisecond apart: runs of one group and switches.
  const lastOfDay = new Date("2026-03-15T23:59:59.999Z");
  const firstOfNext = new Date("2026-03-16T00:00:00.000Z");
  const llm = { provider: "xai", model: "grok", promptTokens: 3, completionTokens: 4 };
  const events = [
    event({ keyId: "a", at: lastOfDay, ...llm }),
    event({ keyId: "a", at: lastOfDay, ...llm }),
    event({ keyId: "a", at: firstOfNext, ...llm }),
    event({ keyId: "b", at: lastOfDay, route: "/v1/key", area: "key", status: 429 }),
    event({ keyId: "a", at: lastOfDay, ...llm, model: "grok-mini" }),
    event({ keyId: "b", at: lastOfDay, route: "/v1/key", area: "key", status: 500, latencyMs: 60_000 }),
    event({ keyId: "a", at: firstOfNext, ...llm }),
  ];

  it("sums per key, UTC day and route however the events interleave", () => {
    const rows = rollUp(events).map((r) => [
      r.keyId,
      r.day,
      r.route,
      r.area,
      r.requests,
      r.ok,
      r.client,
      r.server,
      r.limited,
      r.tokens,
    ]);
    expect(rows).toEqual([
      ["a", "2026-03-15", "/v1/llm/chat", "llm", 3, 3, 0, 0, 0, 21],
      ["a", "2026-03-16", "/v1/llm/chat", "llm", 2, 2, 0, 0, 0, 14],
      ["b", "2026-03-15", "/v1/key", "key", 2, 0, 1, 1, 1, 0],
    ]);
    const b = rollUp(events).find((r) => r.keyId === "b")!;
    expect(b.latencyHist.at(-1)).toBe(1);
    expect(b.latencyHist[2]).toBe(1); // 12 ms: over 10, up to 25
  });

  it("sums provider calls per key and day, and model calls per key, day, provider and model", () => {
    expect(
      rollUpProviders(events).map((r) => [r.keyId, r.day, r.provider, r.requests, r.prompt, r.completion]),
    ).toEqual([
      ["a", "2026-03-15", "xai", 3, 9, 12],
      ["a", "2026-03-16", "xai", 2, 6, 8],
    ]);
    expect(rollUpModels(events).map((r) => [r.day, r.model, r.requests])).toEqual([
      ["2026-03-15", "grok", 2],
      ["2026-03-16", "grok", 2],
      ["2026-03-15", "grok-mini", 1],
    ]);
  });

  it("sums feature uses per key, day, provider and feature, from events that named a provider", () => {
    const search = { provider: "anthropic", model: "claude", features: { web_search: 2 } };
    const rows = rollUpFeatures([
      ...events,
      event({ keyId: "a", at: lastOfDay, ...search }),
      event({ keyId: "a", at: lastOfDay, ...search, features: { web_search: 3, "service_tier:priority": 1 } }),
      event({ keyId: "a", at: firstOfNext, ...search }),
      event({ keyId: "b", at: lastOfDay, features: { web_search: 9 } }),
    ]);
    expect(rows.map((r) => [r.keyId, r.day, r.provider, r.feature, r.uses])).toEqual([
      ["a", "2026-03-15", "anthropic", "web_search", 5],
      ["a", "2026-03-15", "anthropic", "service_tier:priority", 1],
      ["a", "2026-03-16", "anthropic", "web_search", 2],
    ]);
  });
});

describe("the response cache's roll-up", () => {
  it("counts hits under the model that first answered with the tokens they saved, misses under the answering one", () => {
    const at = new Date("2026-03-15T10:00:00Z");
    const hit = {
      state: "hit",
      ageS: 3,
      provider: "xai",
      model: "grok",
      promptTokens: 10,
      completionTokens: 5,
    } as const;
    const rows = rollUpCache([
      event({ at, provider: "xai", model: "grok", promptTokens: 10, completionTokens: 5, cache: { state: "miss" } }),
      event({ at, cache: hit }),
      event({ at, cache: hit }),
      event({ at, keyId: "key_2", cache: hit }),
      // Did not ask: not in the cache's rows.
      event({ at, provider: "xai", model: "grok", promptTokens: 1 }),
    ]);
    expect(rows).toEqual([
      {
        keyId: "key_1",
        day: "2026-03-15",
        provider: "xai",
        model: "grok",
        hits: 2,
        misses: 1,
        savedPrompt: 20,
        savedCompletion: 10,
      },
      {
        keyId: "key_2",
        day: "2026-03-15",
        provider: "xai",
        model: "grok",
        hits: 1,
        misses: 0,
        savedPrompt: 10,
        savedCompletion: 5,
      },
    ]);
  });
});
