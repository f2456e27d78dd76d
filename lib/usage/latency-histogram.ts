/**
 * Upper bounds (ms) of the latency buckets kept per key, day and route; one more bucket counts
 * everything slower. Enough resolution for p50/p95 on a dashboard without keeping every latency.
 */
export const LATENCY_BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000] as const;

export function latencyBucket(ms: number): number {
  let i = 0;
  while (i < LATENCY_BUCKETS_MS.length && !(ms <= LATENCY_BUCKETS_MS[i]!)) i++;
  return i;
}

/**
 * An estimate of the latency under which `q` (0..1) of the requests in a histogram finished: the rank is
 * placed linearly between its bucket's bounds (as Prometheus' histogram_quantile does), so 42 calls under
 * 70 ms and one of 4 s give a p95 near 70 ms rather than a bucket's upper bound. The last bucket has no
 * upper bound, so a rank there reads as its lower bound (30 s, shown as "over 30 s").
 */
export function latencyPercentile(hist: number[], q: number): number | null {
  const total = hist.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    const n = hist[i] ?? 0;
    if (n > 0 && seen + n >= rank) {
      const lower = i === 0 ? 0 : LATENCY_BUCKETS_MS[i - 1]!;
      const upper = LATENCY_BUCKETS_MS[i];
      return upper === undefined ? lower : Math.round(lower + ((rank - seen) / n) * (upper - lower));
    }
    seen += n;
  }
  return LATENCY_BUCKETS_MS[LATENCY_BUCKETS_MS.length - 1]!;
}
