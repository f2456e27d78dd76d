/** Seconds' worth of rows a key may log at once after a quiet spell. */
export const LOG_BURST_SECONDS = 10;

/**
 * Which of a key's requests get their own request-log row (usage_events): a token bucket per key of
 * `perSecond` rows a second with bursts of LOG_BURST_SECONDS' worth, 0 meaning every request. Every request
 * is still counted in the daily rollups; the cap only keeps one key at thousands of requests a second from
 * turning the database into the gateway's bottleneck (on PGlite a row costs the event loop more than the
 * rest of a keyed request). At the default limits (100 a minute) a key never reaches it.
 */
export class RequestLogRate {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  /** Requests counted but not given a row since start. */
  skipped = 0;

  constructor(private readonly perSecond: number) {}

  take(keyId: string, now: number): boolean {
    if (this.perSecond === 0) return true;
    const burst = this.perSecond * LOG_BURST_SECONDS;
    const bucket = this.buckets.get(keyId);
    if (!bucket) {
      this.buckets.set(keyId, { tokens: burst - 1, at: now });
      return true;
    }
    // A clock stepped back refills nothing (and takes nothing back).
    if (now > bucket.at) {
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
      bucket.at = now;
    }
    if (bucket.tokens < 1) {
      this.skipped += 1;
      return false;
    }
    bucket.tokens -= 1;
    return true;
  }

  /** Forgets keys whose bucket has refilled: they start full again, so nothing changes but the memory held. */
  prune(now: number): void {
    for (const [keyId, bucket] of this.buckets)
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond >= this.perSecond * LOG_BURST_SECONDS)
        this.buckets.delete(keyId);
  }
}
