import { RateLimitError } from "../../../errors.ts";
import {
  nearestExhaustion,
  rateLimitHeaders,
  type LevelCheck,
  type LevelStates,
  type LimitLevel,
  type LimitStore,
  type Limits,
  type StoreDecision,
  type TokenDecision,
  type TokenSubject,
  type WindowState,
} from "./windows.ts";

/** A level above the key as a refusal names it: which level, and its name (a team's, an organisation's). */
export type NamedLevel = LevelCheck & { level: Exclude<LimitLevel, "key">; name: string };

/** A token reservation's subject as a refusal names it: the key, or a level above it. */
export type NamedTokenSubject = TokenSubject & { level: LimitLevel; name: string };

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

  /**
   * `levels`: the limits above the key (its user's, team's, organisation's), checked and counted in the
   * same store call; the headers then describe whichever window, the key's or a level's, is nearest exhaustion.
   */
  async admit(keyId: string, limits: Limits, levels?: readonly NamedLevel[], now = Date.now()): Promise<Admission> {
    const decision = await this.store.admit(keyId, limits, levels);
    if (decision.refusedBy !== null)
      throw decision.refusedAt >= 0
        ? levelRefusal(levels![decision.refusedAt]!, decision.levels![decision.refusedAt]!, decision.refusedBy, now)
        : refusal(decision, limits, now);
    const { minute, day, concurrency } = decision;
    return {
      minute,
      day,
      concurrency,
      headers: rateLimitHeaders(nearest(nearestExhaustion(minute, day), decision.levels)!),
      release: () => void decision.release().catch(this.onReleaseError),
      forgiveMinute: () => {
        decision.forgiveMinute().catch(this.onReleaseError);
        const given = { ...minute, remaining: Math.min(minute.limit, minute.remaining + 1) };
        return rateLimitHeaders(nearestExhaustion(given, day));
      },
    };
  }

  /**
   * Reserves a request's estimated tokens in each subject's token windows (the key's, its levels'), or
   * refuses it with a 429 naming the level and the token window (RateLimitError "tokens_minute" or "tokens_day").
   */
  async reserveTokens(
    subjects: readonly NamedTokenSubject[],
    tokens: number,
    now = Date.now(),
  ): Promise<TokenReservation> {
    const decision = await this.store.reserveTokens(subjects, tokens);
    if (decision.refusedBy !== null) throw tokenRefusal(decision, subjects[decision.refusedAt]!, tokens, now);
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

/** The window nearest exhaustion: `first`, or one of the levels' windows. */
function nearest(first: WindowState | undefined, levels: readonly LevelStates[] | undefined): WindowState | undefined {
  let w = first;
  for (const { minute, day } of levels ?? []) {
    if (minute) w = w ? nearestExhaustion(w, minute) : minute;
    if (day) w = w ? nearestExhaustion(w, day) : day;
  }
  return w;
}

/** How a refusal names a level: "this key", "team "Research"". */
function whoIs({ level, name }: { level: LimitLevel; name: string }): string {
  switch (level) {
    case "key":
      return "this key";
    case "user":
      return "the account this key belongs to";
    default:
      return `${level} ${JSON.stringify(name)}`;
  }
}

/** A level above the key refused the request in its minute or day window. */
function levelRefusal(
  level: NamedLevel,
  states: LevelStates,
  by: "minute" | "day" | "concurrency",
  now: number,
): RateLimitError {
  const who = whoIs(level);
  if (by === "minute")
    return new RateLimitError(
      `rate limit exceeded: ${who} may make at most ${level.limits.minute} requests per minute across its keys (daily limits reset at midnight UTC)`,
      retryAfter(states.minute!.reset, now),
      "minute",
      rateLimitHeaders(states.minute!),
    );
  return new RateLimitError(
    `rate limit exceeded: the daily limit of ${level.limits.day} requests for ${who} is used up; it resets at midnight UTC`,
    retryAfter(states.day!.reset, now),
    "day",
    rateLimitHeaders(states.day!),
  );
}

/** OpenAI's token headers, for the window nearest exhaustion among the subjects': what an SDK that reads them expects. */
function tokenHeaders(decision: TokenDecision): Record<string, string> {
  const w = nearest(undefined, decision.states);
  return w ? tokenWindowHeaders(w) : {};
}

/** One token window as OpenAI's headers say it. */
function tokenWindowHeaders(w: WindowState, now = Date.now()): Record<string, string> {
  return {
    "x-ratelimit-limit-tokens": String(w.limit),
    "x-ratelimit-remaining-tokens": String(w.remaining),
    "x-ratelimit-reset-tokens": `${Math.max(0, Math.ceil((w.reset - now) / 1000))}s`,
  };
}

function tokenRefusal(
  decision: TokenDecision & { refusedBy: "minute" | "day" },
  subject: NamedTokenSubject,
  tokens: number,
  now: number,
): RateLimitError {
  const perMinute = decision.refusedBy === "minute";
  const w = decision.states[decision.refusedAt]![decision.refusedBy]!;
  const limit = (perMinute ? subject.limits.minute : subject.limits.day)!;
  const per = perMinute ? "per minute" : "per day (UTC)";
  const who = whoIs(subject);
  const need = `this request needs up to ${tokens.toLocaleString("en")} (its prompt and its maximum output)`;
  const message =
    tokens > limit
      ? `rate limit exceeded: ${who} may use at most ${limit.toLocaleString("en")} tokens ${per}, and ${need}: lower max_tokens or shorten the prompt`
      : `rate limit exceeded: at most ${limit.toLocaleString("en")} tokens ${per} for ${who}; ${w.remaining.toLocaleString("en")} are left and ${need}`;
  return new RateLimitError(
    message,
    retryAfter(w.reset, now),
    perMinute ? "tokens_minute" : "tokens_day",
    tokenWindowHeaders(w, now),
  );
}
