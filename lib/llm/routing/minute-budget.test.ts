import { describe, expect, it } from "vitest";
import { MinuteBudget } from "./minute-budget.ts";

describe("MinuteBudget", () => {
  it("passes a deployment by once it has had its requests or tokens this minute, and takes it back the next", () => {
    let now = 120_000;
    const budget = new MinuteBudget(() => now);
    const limits = { rpm: 2, tpm: 100 };
    expect(budget.refusal("a", limits)).toBeUndefined();
    budget.request("a");
    budget.request("a");
    expect(budget.refusal("a", limits)).toBe("over-rpm");
    expect(budget.refusal("b", limits)).toBeUndefined();
    now += 60_000;
    expect(budget.refusal("a", limits)).toBeUndefined();
    budget.request("a");
    budget.tokens("a", 60);
    budget.tokens("a", 40);
    expect(budget.refusal("a", limits)).toBe("over-tpm");
    expect(budget.msToNextMinute()).toBe(60_000);
    now += 59_000;
    expect(budget.msToNextMinute()).toBe(1_000);
  });

  it("never refuses a deployment without limits", () => {
    const budget = new MinuteBudget();
    for (let i = 0; i < 1000; i++) budget.request("a");
    expect(budget.refusal("a", {})).toBeUndefined();
  });
});
