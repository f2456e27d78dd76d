import { RateLimitError } from "../../../errors.ts";
import {
  nearestExhaustion,
  rateLimitHeaders,
  type LimitStore,
  type Limits,
  type StoreDecision,
  type TokenDecision,
  type TokenLimits,
  type WindowState,
} from "./windows.ts";

/** A request's tokens, reserved at admission: the headers to answer with, and the settling with what it used. */
export type TokenReservation = {
  headers: Record<string, string>;
  /** Counts `actual` tokens (prompt and completion) instead of the reservation; once, off the answer's path. */
  settle(actual: number): void;
};

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

  /**
   * Reserves a request's estimated tokens in the key's token windows, or refuses it with a 429 naming
   * the token window (RateLimitError "tokens_minute" or "tokens_day").
   */
  async reserveTokens(keyId: string, limits: TokenLimits, tokens: number, now = Date.now()): Promise<TokenReservation> {
    const decision = await this.store.reserveTokens(keyId, limits, tokens);
    if (decision.refusedBy !== null) throw tokenRefusal(decision, limits, tokens, now);
    return {
      headers: tokenHeaders(decision),
      settle: (actual) => void decision.settle(actual).catch(this.onReleaseError),
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

/** OpenAI's token headers, for the window nearer exhaustion: what an SDK that reads them expects. */
function tokenHeaders(decision: TokenDecision): Record<string, string> {
  const { minute, day } = decision;
  const w = minute && day ? nearestExhaustion(minute, day) : (minute ?? day);
  if (!w) return {};
  return {
    "x-ratelimit-limit-tokens": String(w.limit),
    "x-ratelimit-remaining-tokens": String(w.remaining),
    "x-ratelimit-reset-tokens": `${Math.max(0, Math.ceil((w.reset - Date.now()) / 1000))}s`,
  };
}

function tokenRefusal(decision: TokenDecision, limits: TokenLimits, tokens: number, now: number): RateLimitError {
  const perMinute = decision.refusedBy === "minute";
  const w = (perMinute ? decision.minute : decision.day)!;
  const limit = (perMinute ? limits.minute : limits.day)!;
  const per = perMinute ? "per minute" : "per day (UTC)";
  const need = `this request needs up to ${tokens.toLocaleString("en")} (its prompt and its maximum output)`;
  const message =
    tokens > limit
      ? `rate limit exceeded: this key may use at most ${limit.toLocaleString("en")} tokens ${per}, and ${need}: lower max_tokens or shorten the prompt`
      : `rate limit exceeded: at most ${limit.toLocaleString("en")} tokens ${per} for this key; ${w.remaining.toLocaleString("en")} are left and ${need}`;
  return new RateLimitError(
    message,
    retryAfter(w.reset, now),
    perMinute ? "tokens_minute" : "tokens_day",
    tokenHeaders(decision),
  );
}
