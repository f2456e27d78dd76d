import {
  WINDOW_MS,
  type Limits,
  type RefusedBy,
  type TokenLimits,
  type WindowKind,
  type WindowState,
} from "./windows.ts";

/** A key's counts before a request: the minute's current and previous buckets, the UTC day, slots in use. */
export type Counts = { minute: number; previousMinute: number; day: number; inUse: number };

export type Decision = {
  refusedBy: RefusedBy | null;
  minute: WindowState;
  day: WindowState;
  concurrency: { limit: number; inUse: number };
};

/** The bucket a window is in at `now`: minutes and UTC days since the epoch. */
export function bucketOf(kind: WindowKind, now: number): number {
  return Math.floor(now / WINDOW_MS[kind]);
}

/**
 * The previous minute's requests that still count at `now`: the share of the previous bucket the
 * sliding window still covers (@upstash/ratelimit's slidingWindow, which keys used before, so
 * counts carry over). The Lua in redis-scripts.ts computes the same; keep the two in step.
 */
export function carriedOver(previousMinute: number, now: number): number {
  const size = WINDOW_MS.minute;
  return Math.floor((1 - (now % size) / size) * previousMinute);
}

/**
 * Decides one request from the counts before it, minute first, then day, then concurrency. The
 * states returned are those after the request: counted everywhere when admitted, nowhere when
 * refused, so the headers of a refusal show what is really used.
 */
export function decide(counts: Counts, limits: Limits, now: number): Decision {
  const minuteUsed = counts.minute + carriedOver(counts.previousMinute, now);
  const refusedBy: RefusedBy | null =
    minuteUsed >= limits.minute
      ? "minute"
      : counts.day >= limits.day
        ? "day"
        : counts.inUse >= limits.concurrency
          ? "concurrency"
          : null;
  const taken = refusedBy === null ? 1 : 0;
  return {
    refusedBy,
    minute: windowState("minute", limits.minute, minuteUsed + taken, refusedBy !== "minute", now),
    day: windowState("day", limits.day, counts.day + taken, refusedBy !== "day", now),
    concurrency: { limit: limits.concurrency, inUse: counts.inUse + taken },
  };
}

/** A window's state without counting a request, as dashboards show it. */
export function peekState(kind: WindowKind, limit: number, used: number, now: number): WindowState {
  return windowState(kind, limit, used, used < limit, now);
}

function windowState(kind: WindowKind, limit: number, used: number, success: boolean, now: number): WindowState {
  return { success, limit, remaining: Math.max(0, limit - used), reset: (bucketOf(kind, now) + 1) * WINDOW_MS[kind] };
}

/** A key's token counts before a reservation: the minute's current and previous buckets, the UTC day. */
export type TokenCounts = { minute: number; previousMinute: number; day: number };

export type TokenVerdict = { refusedBy: WindowKind | null; minute?: WindowState; day?: WindowState };

/**
 * Decides a reservation of `tokens` from the counts before it, minute first: it fits a window when what
 * the window holds plus it is at most the limit. The states are those after it, as decide's are.
 */
export function decideTokens(counts: TokenCounts, limits: TokenLimits, tokens: number, now: number): TokenVerdict {
  const minuteUsed = counts.minute + carriedOver(counts.previousMinute, now);
  const refusedBy: WindowKind | null =
    limits.minute !== undefined && minuteUsed + tokens > limits.minute
      ? "minute"
      : limits.day !== undefined && counts.day + tokens > limits.day
        ? "day"
        : null;
  const taken = refusedBy === null ? tokens : 0;
  return {
    refusedBy,
    ...(limits.minute !== undefined && {
      minute: windowState("minute", limits.minute, minuteUsed + taken, refusedBy !== "minute", now),
    }),
    ...(limits.day !== undefined && {
      day: windowState("day", limits.day, counts.day + taken, refusedBy !== "day", now),
    }),
  };
}
