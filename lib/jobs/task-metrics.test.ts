import { RateLimitError } from "../errors.ts";
import { describe, expect, it } from "vitest";
import { BudgetExceeded } from "./budget-exceeded.ts";
import { cachedRead, outcomeOf } from "./task-metrics.ts";

describe("outcomeOf", () => {
  it("names the final status: completed, failed, budget_exceeded, and cancelled whatever the work did", () => {
    expect(outcomeOf(undefined, false)).toBe("completed");
    expect(outcomeOf(new Error("x"), false)).toBe("failed");
    expect(outcomeOf(new BudgetExceeded(new RateLimitError("over", 60, "budget"), {}), false)).toBe("budget_exceeded");
    expect(outcomeOf(new Error("aborted"), true)).toBe("cancelled");
    expect(outcomeOf(undefined, true)).toBe("cancelled");
  });
});

describe("cachedRead", () => {
  const options = { timeoutMs: 20, maxAgeMs: 5_000, staleMs: 60_000 };

  it("reads once, then answers from the cache until the value is maxAgeMs old", async () => {
    let clock = 0;
    let reads = 0;
    const read = cachedRead(async () => ++reads, { ...options, now: () => clock });
    expect(await read()).toBe(1);
    clock = 4_999;
    expect(await read()).toBe(1);
    clock = 5_000;
    expect(await read()).toBe(2);
  });

  it("answers a scrape with the last value when the source hangs, and starts no second read meanwhile", async () => {
    let clock = 0;
    let reads = 0;
    let hang = false;
    let release!: (n: number) => void;
    const read = cachedRead(
      () => {
        reads += 1;
        return hang ? new Promise<number>((resolve) => (release = resolve)) : Promise.resolve(7);
      },
      { ...options, now: () => clock },
    );
    expect(await read()).toBe(7);
    hang = true;
    clock = 10_000;
    expect(await read()).toBe(7);
    expect(await read()).toBe(7);
    expect(reads).toBe(2);
    // Once past staleMs the old value is not shown.
    clock = 61_000;
    expect(await read()).toBeUndefined();
    // The hung read's answer, when it comes, is the next scrape's.
    release(9);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await read()).toBe(9);
  });

  it("keeps the last value through a failed read, and has none before the first success", async () => {
    let clock = 0;
    let fail = true;
    const read = cachedRead(
      async () => {
        if (fail) throw new Error("redis away");
        return 3;
      },
      { ...options, now: () => clock },
    );
    expect(await read()).toBeUndefined();
    fail = false;
    expect(await read()).toBe(3);
    fail = true;
    clock = 6_000;
    expect(await read()).toBe(3);
  });
});
