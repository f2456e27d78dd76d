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
 * What a store decided for a request's token reservation: the windows' states after it (only those
 * limited), and when admitted, `settle` to replace the reservation with what the request really used.
 */
export type TokenDecision = { minute?: WindowState; day?: WindowState } & (
  | { refusedBy: WindowKind }
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
} & (
  | { refusedBy: RefusedBy }
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
 * so a key behaves the same on one instance or many.
 */
export interface LimitStore {
  /**
   * Checks the minute, day and concurrency windows and counts the request in all of them, or in
   * none: a request refused by one window uses nothing of the others. An admitted request gets
   * `release` to give its concurrency slot back (once, however often it is called).
   */
  admit(keyId: string, limits: Limits): Promise<StoreDecision>;
  /**
   * Checks a request's token reservation against the key's token windows and counts it in all of them,
   * or in none (a reservation refused by one window uses nothing of the other).
   */
  reserveTokens(keyId: string, limits: TokenLimits, tokens: number): Promise<TokenDecision>;
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
