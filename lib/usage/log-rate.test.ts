import { describe, expect, it } from "vitest";
import { LOG_BURST_SECONDS, RequestLogRate } from "./log-rate.ts";

describe("RequestLogRate", () => {
  it("logs a burst of ten seconds' worth, then the rate, per key", () => {
    const rate = new RequestLogRate(5);
    const t0 = 1_000_000;
    const first = Array.from({ length: 80 }, () => rate.take("a", t0)).filter(Boolean).length;
    expect(first).toBe(5 * LOG_BURST_SECONDS);
    expect(rate.skipped).toBe(30);
    // Another key has its own bucket.
    expect(rate.take("b", t0)).toBe(true);
    // One second later, five more rows for "a".
    const next = Array.from({ length: 20 }, () => rate.take("a", t0 + 1000)).filter(Boolean).length;
    expect(next).toBe(5);
  });

  it("refills nothing when the clock steps back", () => {
    const rate = new RequestLogRate(1);
    for (let i = 0; i < 10; i++) rate.take("a", 10_000);
    expect(rate.take("a", 5_000)).toBe(false);
    expect(rate.take("a", 11_000)).toBe(true);
  });

  it("logs every request when the rate is 0", () => {
    const rate = new RequestLogRate(0);
    expect(Array.from({ length: 10_000 }, () => rate.take("a", 0)).every(Boolean)).toBe(true);
    expect(rate.skipped).toBe(0);
  });

  it("forgets only buckets that have refilled", () => {
    const rate = new RequestLogRate(1);
    for (let i = 0; i < 10; i++) rate.take("busy", 0);
    rate.take("idle", 0);
    rate.prune(5_000);
    // "busy" is still short of a full bucket after 5 s: it stays empty-ish, so its 11th row is refused at once.
    for (let i = 0; i < 5; i++) expect(rate.take("busy", 5_000)).toBe(true);
    expect(rate.take("busy", 5_000)).toBe(false);
    rate.prune(60_000);
    // Refilled and forgotten: a fresh full bucket.
    expect(Array.from({ length: 12 }, () => rate.take("busy", 60_000)).filter(Boolean).length).toBe(10);
  });
});
