import { RateLimitError } from "../../../errors.ts";
import { nearestExhaustion, rateLimitHeaders, type LimitStore, type WindowState } from "./windows.ts";

export type Limits = { day: number; minute: number; concurrency: number };

/** What a request was granted: the windows after counting it, and a slot to give back. */
export type Admission = {
  minute: WindowState;
  day: WindowState;
  concurrency: { limit: number; inUse: number };
  headers: Record<string, string>;
  release(): void;
};

/**
 * Applies the three per-key limits in order: minute, day, concurrency. A refusal is a
 * RateLimitError (429, Form B) whose message says which limit and, for the day, when it resets.
 */
export class Limiter {
  constructor(
    private readonly store: LimitStore,
    private readonly onReleaseError: (err: unknown) => void = () => {},
  ) {}

  async admit(keyId: string, limits: Limits, now = Date.now()): Promise<Admission> {
    const minute = await this.store.hit(keyId, "minute", limits.minute);
    if (!minute.success) {
      throw new RateLimitError(
        `rate limit exceeded: at most ${limits.minute} requests per minute (the daily limit of ${limits.day} resets at midnight UTC)`,
        retryAfter(minute.reset, now),
        "minute",
        rateLimitHeaders(minute),
      );
    }
    const day = await this.store.hit(keyId, "day", limits.day);
    if (!day.success) {
      throw new RateLimitError(
        `rate limit exceeded: the daily limit of ${limits.day} requests is used up; it resets at midnight UTC`,
        retryAfter(day.reset, now),
        "day",
        rateLimitHeaders(day),
      );
    }
    const headers = rateLimitHeaders(nearestExhaustion(minute, day));
    const slot = await this.store.acquire(keyId, limits.concurrency);
    if (!slot.ok) {
      throw new RateLimitError(
        `rate limit exceeded: at most ${limits.concurrency} concurrent requests per key (the daily limit of ${limits.day} resets at midnight UTC)`,
        1,
        "concurrency",
        headers,
      );
    }
    let released = false;
    return {
      minute,
      day,
      concurrency: { limit: limits.concurrency, inUse: slot.inUse },
      headers,
      release: () => {
        if (released) return;
        released = true;
        this.store.release(keyId).catch(this.onReleaseError);
      },
    };
  }

  /** What remains of a key's minute and day windows now, without using any of it. */
  async remaining(keyId: string, limits: Limits): Promise<{ minute: WindowState; day: WindowState }> {
    const [minute, day] = await Promise.all([
      this.store.peek(keyId, "minute", limits.minute),
      this.store.peek(keyId, "day", limits.day),
    ]);
    return { minute, day };
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

function retryAfter(resetMs: number, now: number): number {
  return Math.max(1, Math.ceil((resetMs - now) / 1000));
}
