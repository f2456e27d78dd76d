/** One window's state after a request, as reported in X-RateLimit-* headers. */
export type WindowState = {
  success: boolean;
  limit: number;
  remaining: number;
  /** Epoch milliseconds when the window frees up. */
  reset: number;
};

export type WindowKind = "minute" | "day";

export const WINDOW_MS: Record<WindowKind, number> = { minute: 60_000, day: 86_400_000 };

export type Limits = { day: number; minute: number; concurrency: number };

/** A key's model tokens (prompt and completion) per minute and per UTC day; an absent window is not limited. */
export type TokenLimits = { minute?: number; day?: number };

/**
 * Where a limit is set: the key's own, or a level above it. A request passes only if every level passes;
 * they are checked key first, then user, team and organisation, and a refusal names the first that refuses.
 */
export type LimitLevel = "key" | "user" | "team" | "organisation";

/**
 * A level above the key that limits a request's count: whose counters (`id`, e.g. `team:<id>`) and its
 * windows' limits in requests, each absent when that level does not limit it (a TokenSubject's shape, so
 * one decision serves both).
 */
export type LevelCheck = { id: string; limits: { minute?: number; day?: number } };

/** The windows a level limits, after a request: absent where it sets no limit. */
export type LevelStates = { minute?: WindowState; day?: WindowState };

/** Whose token windows a reservation is checked against: the key's lineage or a level's id, and its limits. */
export type TokenSubject = { id: string; limits: TokenLimits };

/**
 * What a store decided for a request's token reservation: each subject's windows after it (only those
 * limited), and when admitted, `settle` to replace the reservation with what the request really used.
 */
export type TokenDecision = { states: LevelStates[] } & (
  | { refusedBy: WindowKind; /** The subject (index) that refused. */ refusedAt: number }
  | {
      refusedBy: null;
      /** Counts `actual` tokens instead of the reservation, in the buckets it was counted in (once). */
      settle(actual: number): Promise<void>;
    }
);

/** The window that refused a request; checked in this order, so a request over two names the first. */
export type RefusedBy = "minute" | "day" | "concurrency";

/** What a store decided for one request, with every window's state as the headers report it. */
export type StoreDecision = {
  minute: WindowState;
  day: WindowState;
  concurrency: { limit: number; inUse: number };
  /** The levels' windows (LevelCheck, in the order given) after the request; absent when none were given. */
  levels?: LevelStates[];
} & (
  | {
      refusedBy: RefusedBy;
      /** Which level refused: -1 the key, else the index of its LevelCheck. */
      refusedAt: number;
    }
  | {
      refusedBy: null;
      release(): Promise<void>;
      /** Takes the request back out of the minute window it was counted in (once, however often called). */
      forgiveMinute(): Promise<void>;
    }
);

/**
 * Where limit counters live. The memory store and the Redis store run the same algorithms
 * (the day as a fixed window aligned to midnight UTC, the minute as a sliding window),
 * so a key behaves the same on one instance or many. A level above the key (LevelCheck) has the same
 * minute and day windows, under its own id, checked and counted in the same step as the key's.
 */
export interface LimitStore {
  /**
   * Checks the minute, day and concurrency windows and counts the request in all of them, or in
   * none: a request refused by one window uses nothing of the others. An admitted request gets
   * `release` to give its concurrency slot back (once, however often it is called).
   */
  admit(keyId: string, limits: Limits, levels?: readonly LevelCheck[]): Promise<StoreDecision>;
  /**
   * Checks a request's token reservation against each subject's token windows (the key's, its levels')
   * and counts it in all of them, or in none (a reservation refused by one window uses nothing of another).
   */
  reserveTokens(subjects: readonly TokenSubject[], tokens: number): Promise<TokenDecision>;
  /** The window's state now, without counting a request (dashboards). */
  peek(keyId: string, kind: WindowKind, limit: number): Promise<WindowState>;
  close(): Promise<void>;
}

/** A slot's release (or a reservation's settling) that acts the first time only, however often it is called. */
export function releaseOnce<A extends unknown[]>(
  release: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  let released = false;
  return async (...args) => {
    if (released) return;
    released = true;
    await release(...args);
  };
}

/** The window nearer exhaustion: fewer requests left, or on a tie the one that frees later. */
export function nearestExhaustion(a: WindowState, b: WindowState): WindowState {
  if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b;
  return a.reset >= b.reset ? a : b;
}

export function rateLimitHeaders(w: WindowState): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(w.limit),
    "X-RateLimit-Remaining": String(w.remaining),
    "X-RateLimit-Reset": String(Math.ceil(w.reset / 1000)),
  };
}
