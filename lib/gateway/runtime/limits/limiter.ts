import { RateLimitError } from "../../../errors.ts";
import {
  nearestExhaustion,
  rateLimitHeaders,
  type LimitStore,
  type Limits,
  type StoreDecision,
  type WindowState,
} from "./windows.ts";

/** What a request was granted: the windows after counting it, and a slot to give back. */
export type Admission = {
  minute: WindowState;
  day: WindowState;
  concurrency: { limit: number; inUse: number };
  headers: Record<string, string>;
  release(): void;
  /**
   * Takes the request back out of the minute window (a response-cache hit the operator frees of it),
   * off the answer's path; returns the rate-limit headers as they now stand.
   */
  forgiveMinute(): Record<string, string>;
};

/**
 * Applies the three per-key limits (minute, day, concurrency) in one store call that counts the
 * request in all of them or none. A refusal is a RateLimitError (429, Form B) whose message says
 * which limit and, for the day, when it resets.
 */
export class Limiter {
  constructor(
    private readonly store: LimitStore,
    private readonly onReleaseError: (err: unknown) => void = () => {},
  ) {}

  async admit(keyId: string, limits: Limits, now = Date.now()): Promise<Admission> {
    const decision = await this.store.admit(keyId, limits);
    if (decision.refusedBy !== null) throw refusal(decision, limits, now);
    const { minute, day, concurrency } = decision;
    return {
      minute,
      day,
      concurrency,
      headers: rateLimitHeaders(nearestExhaustion(minute, day)),
      release: () => void decision.release().catch(this.onReleaseError),
      forgiveMinute: () => {
        decision.forgiveMinute().catch(this.onReleaseError);
        const given = { ...minute, remaining: Math.min(minute.limit, minute.remaining + 1) };
        return rateLimitHeaders(nearestExhaustion(given, day));
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

function refusal(decision: StoreDecision, limits: Limits, now: number): RateLimitError {
  const { minute, day } = decision;
  switch (decision.refusedBy) {
    case "minute":
      return new RateLimitError(
        `rate limit exceeded: at most ${limits.minute} requests per minute (the daily limit of ${limits.day} resets at midnight UTC)`,
        retryAfter(minute.reset, now),
        "minute",
        rateLimitHeaders(minute),
      );
    case "day":
      return new RateLimitError(
        `rate limit exceeded: the daily limit of ${limits.day} requests is used up; it resets at midnight UTC`,
        retryAfter(day.reset, now),
        "day",
        rateLimitHeaders(day),
      );
    default:
      return new RateLimitError(
        `rate limit exceeded: at most ${limits.concurrency} concurrent requests per key (the daily limit of ${limits.day} resets at midnight UTC)`,
        1,
        "concurrency",
        rateLimitHeaders(nearestExhaustion(minute, day)),
      );
  }
}

function retryAfter(resetMs: number, now: number): number {
  return Math.max(1, Math.ceil((resetMs - now) / 1000));
}
