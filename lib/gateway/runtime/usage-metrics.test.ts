import { Counter, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { countUsage, MODEL_LABELS_PER_PROVIDER, modelLabel, OTHER_MODEL, type UsageCounters } from "./usage-metrics.ts";

describe("modelLabel", () => {
  it("keeps a provider's first models as they are, and names every later one other", () => {
    const seen = new Map<string, Set<string>>();
    expect(modelLabel(seen, "openai", "a", 2)).toBe("a");
    expect(modelLabel(seen, "openai", "b", 2)).toBe("b");
    expect(modelLabel(seen, "openai", "c", 2)).toBe(OTHER_MODEL);
    expect(modelLabel(seen, "openai", "a", 2)).toBe("a");
    expect(modelLabel(seen, "xai", "c", 2)).toBe("c");
  });

  it("bounds a provider at MODEL_LABELS_PER_PROVIDER distinct labels however many models clients name", () => {
    const seen = new Map<string, Set<string>>();
    const labels = new Set<string>();
    for (let i = 0; i < 1000; i++) labels.add(modelLabel(seen, "groq", `model-${i}`));
    expect(labels.size).toBe(MODEL_LABELS_PER_PROVIDER + 1);
    expect(labels.has(OTHER_MODEL)).toBe(true);
    expect(labels.has(`model-${MODEL_LABELS_PER_PROVIDER}`)).toBe(false);
  });
});

describe("countUsage", () => {
  const counters = (): UsageCounters => {
    const registers = [new Registry()];
    return {
      llmTokens: new Counter({ name: "t", help: "t", labelNames: ["provider", "model", "direction"], registers }),
      llmCost: new Counter({ name: "c", help: "c", labelNames: ["provider", "model"], registers }),
      llmRequests: new Counter({
        name: "r",
        help: "r",
        labelNames: ["provider", "model", "route", "status_class"],
        registers,
      }),
      llmCache: new Counter({ name: "h", help: "h", labelNames: ["route", "result"], registers }),
      llmCacheSavedUsd: new Counter({ name: "s", help: "s", registers }),
      modelLabels: new Map(),
    };
  };
  const event = {
    keyId: "k",
    requestId: "r",
    method: "POST",
    route: "/v1/chat/completions",
    area: "llm",
    latencyMs: 1,
    bytesIn: 0,
    bytesOut: 0,
    at: new Date(),
  };
  const value = async (c: Counter<string>, labels: Record<string, string>) =>
    (await c.get()).values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value;

  it("counts tokens, the priced cost and the request by status class", async () => {
    const m = counters();
    countUsage(m, {
      ...event,
      status: 200,
      provider: "xai",
      model: "grok-4",
      promptTokens: 1000,
      completionTokens: 100,
    });
    expect(await value(m.llmTokens, { model: "grok-4", direction: "input" })).toBe(1000);
    expect(await value(m.llmTokens, { model: "grok-4", direction: "output" })).toBe(100);
    expect(await value(m.llmCost, { provider: "xai", model: "grok-4" })).toBeCloseTo((1000 * 3 + 100 * 15) / 1e6, 12);
    expect(await value(m.llmRequests, { route: "/v1/chat/completions", status_class: "2xx" })).toBe(1);
  });

  it("adds the priced features billed beyond tokens to the cost, as the budgets do", async () => {
    const m = counters();
    countUsage(m, {
      ...event,
      status: 200,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      promptTokens: 1000,
      completionTokens: 100,
      features: { web_search: 3, "service_tier:priority": 1 },
    });
    const tokens = (1000 * 3 + 100 * 15) / 1e6;
    expect(await value(m.llmCost, { model: "claude-sonnet-4-5" })).toBeCloseTo(tokens + 3 * 0.01, 12);
    // An unpriced model's web searches still cost what they cost.
    countUsage(m, { ...event, status: 200, provider: "anthropic", model: "mystery", features: { web_search: 2 } });
    expect(await value(m.llmCost, { model: "mystery" })).toBeCloseTo(0.02, 12);
  });

  it("adds no cost for an unpriced model and counts nothing for a request without a provider", async () => {
    const m = counters();
    countUsage(m, { ...event, status: 502, provider: "xai", model: "mystery", promptTokens: 5 });
    countUsage(m, { ...event, status: 200 });
    expect((await m.llmCost.get()).values).toEqual([]);
    expect(await value(m.llmRequests, { model: "mystery", status_class: "5xx" })).toBe(1);
    expect((await m.llmRequests.get()).values).toHaveLength(1);
  });

  it("counts the cache's hits and misses, and prices what a hit did not pay without counting it as spent", async () => {
    const m = counters();
    countUsage(m, {
      ...event,
      status: 200,
      provider: "xai",
      model: "grok-4",
      promptTokens: 10,
      cache: { state: "miss" },
    });
    const hit = { provider: "xai", model: "grok-4", promptTokens: 1000, completionTokens: 100, ageS: 5 };
    countUsage(m, { ...event, status: 200, cache: { state: "hit", ...hit } });
    expect(await value(m.llmCache, { route: "/v1/chat/completions", result: "miss" })).toBe(1);
    expect(await value(m.llmCache, { route: "/v1/chat/completions", result: "hit" })).toBe(1);
    expect((await m.llmCacheSavedUsd.get()).values[0]!.value).toBeCloseTo((1000 * 3 + 100 * 15) / 1e6, 12);
    // The hit's tokens are saved, not spent: only the miss's reached the token counter.
    expect(await value(m.llmTokens, { model: "grok-4", direction: "input" })).toBe(10);
    expect(await value(m.llmRequests, { model: "grok-4" })).toBe(1);
  });
});
