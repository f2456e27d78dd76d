import { describe, expect, it } from "vitest";
import { describeBudgetUse, formatAmount } from "./budget-text.ts";
import { amountOf, monthEnd, monthOf, thresholdsReached } from "./budgets.ts";
import { usageEvent } from "./test-events.ts";

describe("budget arithmetic", () => {
  it("counts a request (but not a 429), its tokens, or its estimated cost", () => {
    const llm = usageEvent("k", { provider: "xai", model: "grok-4-0709", promptTokens: 1000, completionTokens: 100 });
    expect(amountOf("requests", llm)).toBe(1);
    expect(amountOf("requests", { ...llm, status: 429 })).toBe(0);
    expect(amountOf("requests", { ...llm, status: 500 })).toBe(1);
    expect(amountOf("tokens", llm)).toBe(1100);
    expect(amountOf("cost", llm)).toBeCloseTo((1000 * 3 + 100 * 15) / 1e6, 12);
    expect(amountOf("cost", usageEvent("k"))).toBe(0);
    expect(amountOf("cost", { ...llm, provider: "ollama", model: "llama3.2" })).toBe(0);
  });

  it("adds the priced features a call used beyond tokens to its cost, and nothing to its tokens", () => {
    const search = usageEvent("k", {
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      promptTokens: 1000,
      completionTokens: 100,
      features: { web_search: 3, "service_tier:priority": 1 },
    });
    expect(amountOf("cost", search)).toBeCloseTo((1000 * 3 + 100 * 15) / 1e6 + 3 * 0.01, 12);
    expect(amountOf("tokens", search)).toBe(1100);
    expect(amountOf("requests", search)).toBe(1);
  });

  it("resets at the first instant of the next UTC month, December included", () => {
    expect(monthOf(new Date("2026-03-31T23:59:59.999Z"))).toBe("2026-03");
    expect(monthEnd("2026-03")).toBe(Date.parse("2026-04-01T00:00:00Z"));
    expect(monthEnd("2026-12")).toBe(Date.parse("2027-01-01T00:00:00Z"));
  });

  it("reaches 80 % and 100 % at exactly those shares", () => {
    expect(thresholdsReached(79, 100)).toEqual([]);
    expect(thresholdsReached(80, 100)).toEqual([80]);
    expect(thresholdsReached(100, 100)).toEqual([80, 100]);
    expect(thresholdsReached(0.0008, 0.001)).toEqual([80]);
  });

  it("words amounts as the dashboard and the mails show them", () => {
    expect(describeBudgetUse("requests", 812, 1000)).toBe("812 of 1,000 requests");
    expect(describeBudgetUse("cost", 0.0123, 5)).toBe("$0.0123 of $5.00 (estimated)");
    expect(formatAmount("tokens", 2_500_000)).toBe("2,500,000 tokens");
  });
});
