import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../upstream/llm-catalogue.ts";
import { estimateCostUsd, priceOf, usageTally } from "./cost.ts";

const tokens = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

describe("cost estimate", () => {
  it("prices every tier model of every provider but the free local runner", () => {
    for (const p of PROVIDERS)
      for (const model of Object.values(p.tiers))
        expect(priceOf(p.name, model) !== undefined, `${p.name}/${model}`).toBe(p.name !== "ollama");
  });

  it("reads $ per million tokens, input and output apart", () => {
    expect(estimateCostUsd("xai", "grok-4", tokens(1_000_000, 0))).toBe(3);
    expect(estimateCostUsd("xai", "grok-4", tokens(0, 1_000_000))).toBe(15);
    expect(estimateCostUsd("openai", "gpt-4.1-mini", tokens(1000, 500))).toBeCloseTo(0.0004 + 0.0008, 10);
  });

  it("prices a dated or suffixed model id by the longest listed name it starts with", () => {
    expect(priceOf("xai", "grok-4-fast-reasoning")).toEqual([0.2, 0.5]);
    expect(priceOf("xai", "grok-4-0709")).toEqual([3, 15]);
  });

  it("estimates 0 for an unknown provider or model, without throwing", () => {
    expect(estimateCostUsd("acme", "x", tokens(1000, 1000))).toBe(0);
    expect(estimateCostUsd("xai", "mystery", tokens(1000, 1000))).toBe(0);
    expect(estimateCostUsd("ollama", "llama3.2", tokens(1000, 1000))).toBe(0);
  });

  it("tallies calls and tokens by tier, with the estimated cost of each call's model", () => {
    const tally = usageTally();
    tally.add("cheap", { provider: "xai", model: "grok-3-mini", usage: tokens(1000, 100) });
    tally.add("cheap", { provider: "xai", model: "grok-3-mini", usage: tokens(2000, 200) });
    tally.add("premium", { provider: "xai", model: "grok-4", usage: tokens(500, 50) });
    expect(tally.summary()).toEqual({
      by_tier: {
        cheap: { calls: 2, prompt_tokens: 3000, completion_tokens: 300 },
        balanced: { calls: 0, prompt_tokens: 0, completion_tokens: 0 },
        premium: { calls: 1, prompt_tokens: 500, completion_tokens: 50 },
      },
      prompt_tokens: 3500,
      completion_tokens: 350,
      total_tokens: 3850,
      // (3000 × 0.3 + 300 × 0.5 + 500 × 3 + 50 × 15) / 1e6
      estimated_cost_usd: 0.0033,
    });
  });
});
