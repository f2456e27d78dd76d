import { afterEach, describe, expect, it } from "vitest";
import {
  DEFAULT_PRICES,
  estimateCost,
  featureCost,
  listPrices,
  mergePrices,
  priceOf,
  setRoutingPrices,
} from "./prices.ts";

type PriceGlobal = typeof globalThis & { __gatewayPrices?: unknown };

describe("the one price table", () => {
  afterEach(() => delete (globalThis as PriceGlobal).__gatewayPrices);

  it("lays the operator's prices over the defaults: one overridden, one added, the rest as shipped", () => {
    const table = mergePrices([
      { provider: "xai", model: "grok-4", price: [1, 2] },
      { provider: "ollama", model: "llama3.2", price: [0, 0] },
      { provider: "acme", model: "m1", price: [5, 6] },
    ]);
    expect(table.get("xai")!.get("grok-4")).toEqual([1, 2]);
    expect(table.get("xai")!.get("grok-3-mini")).toEqual(DEFAULT_PRICES.xai!["grok-3-mini"]);
    expect(table.get("ollama")!.get("llama3.2")).toEqual([0, 0]);
    expect(table.get("acme")!.get("m1")).toEqual([5, 6]);
  });

  it("takes the routing file's deployment prices over the defaults, and the operator's rows over both", () => {
    const table = mergePrices(
      [{ provider: "xai", model: "grok-4", price: [1, 2] }],
      [
        { provider: "xai", model: "grok-4", price: [7, 8] },
        { provider: "openai", model: "gpt-4.1", price: [0.5, 0.5] },
      ],
    );
    expect(table.get("xai")!.get("grok-4")).toEqual([1, 2]);
    expect(table.get("openai")!.get("gpt-4.1")).toEqual([0.5, 0.5]);
    setRoutingPrices([{ provider: "openai", model: "gpt-4.1", price: [0.5, 0.5] }]);
    expect(estimateCost("openai", "gpt-4.1", 1_000_000, 1_000_000)).toBe(1);
  });

  it("prices a suffixed model id by the longest listed name it starts with, and nothing unknown", () => {
    expect(priceOf("xai", "grok-4-fast-reasoning")).toEqual([0.2, 0.5]);
    expect(priceOf("xai", "grok-4-0709")).toEqual([3, 15]);
    expect(estimateCost("xai", "grok-4", 1_000_000, 1_000_000)).toBe(18);
    expect(estimateCost("xai", "mystery", 10, 10)).toBeUndefined();
    expect(estimateCost("ollama", "llama3.2", 10, 10)).toBeUndefined();
  });

  it("prices features used beyond tokens where the provider lists a price, and counts the rest as free", () => {
    expect(featureCost("anthropic", { web_search: 250 })).toBeCloseTo(2.5, 12);
    expect(featureCost("anthropic", { web_fetch: 4, "service_tier:priority": 1 })).toBe(0);
    expect(featureCost("openai", { "service_tier:priority": 1 })).toBe(0);
    expect(featureCost("anthropic", undefined)).toBe(0);
  });

  it("lists every priced model sorted, each marked default", () => {
    const rows = listPrices();
    expect(rows.length).toBe(Object.values(DEFAULT_PRICES).reduce((n, m) => n + Object.keys(m).length, 0));
    expect(rows.every((r) => r.source === "default")).toBe(true);
    const keys = rows.map((r) => `${r.provider}/${r.model}`);
    expect(keys).toEqual([...keys].sort((a, b) => a.localeCompare(b)));
  });
});
