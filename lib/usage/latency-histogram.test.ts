import { describe, expect, it } from "vitest";
import { LATENCY_BUCKETS_MS, latencyBucket, latencyPercentile } from "./latency-histogram.ts";
import { rollUp } from "./roll-up.ts";
import { usageEvent } from "./test-events.ts";

describe("latency histograms", () => {
  it("buckets latencies by upper bound and reads percentiles back", () => {
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(5)).toBe(0);
    expect(latencyBucket(6)).toBe(1);
    expect(latencyBucket(99_999)).toBe(LATENCY_BUCKETS_MS.length);
    const events = [...Array(90).fill(20), ...Array(10).fill(700)].map((ms: number) =>
      usageEvent("k", { latencyMs: ms }),
    );
    const [row] = rollUp(events);
    // Interpolated inside the bucket: rank 50 of 90 in (10, 25], rank 95 the 5th of 10 in (500, 1000].
    expect(latencyPercentile(row!.latencyHist, 0.5)).toBe(18);
    expect(latencyPercentile(row!.latencyHist, 0.95)).toBe(750);
    expect(latencyPercentile([], 0.5)).toBeNull();
  });

  it("estimates p95 among the fast calls, not at a bucket bound, when one slow call is the outlier (42 under 50 ms, one of 4 s)", () => {
    const events = [...Array.from({ length: 42 }, (_, i) => 8 + i), 4000].map((ms) =>
      usageEvent("k", { latencyMs: ms }),
    );
    const [row] = rollUp(events);
    const p95 = latencyPercentile(row!.latencyHist, 0.95)!;
    expect(p95).toBeGreaterThan(25);
    expect(p95).toBeLessThan(50);
    // Past the last bound there is nothing to interpolate to: the estimate is the bound, shown as "over 30 s".
    expect(latencyPercentile(rollUp([usageEvent("k", { latencyMs: 60_000 })])[0]!.latencyHist, 0.5)).toBe(30_000);
  });
});
