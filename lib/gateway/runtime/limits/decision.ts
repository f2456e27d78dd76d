import {
  WINDOW_MS,
  type LevelCheck,
  type LevelStates,
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
  /** Which level refused: -1 the key, else its LevelCheck's index (meaningless when admitted). */
  refusedAt: number;
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
    refusedAt: -1,
    minute: windowState("minute", limits.minute, minuteUsed + taken, refusedBy !== "minute", now),
    day: windowState("day", limits.day, counts.day + taken, refusedBy !== "day", now),
    concurrency: { limit: limits.concurrency, inUse: counts.inUse + taken },
  };
}

/** A level's counts before a request (or a reservation): the minute's current and previous buckets, the UTC day. */
export type LevelCounts = { minute: number; previousMinute: number; day: number };

/**
 * decide, with the levels above the key: the key first, then each level in order, minute before day; the
 * first window that refuses refuses the request, and then it is counted nowhere. `counts[i]` are
 * `levels[i]`'s counts before it. A level's windows are decided as a reservation of one (decideWindows).
 */
export function decideLevels(
  key: Counts,
  limits: Limits,
  levels: readonly LevelCheck[],
  counts: readonly LevelCounts[],
  now: number,
): Decision & { levels: LevelStates[] } {
  const own = decide(key, limits, now);
  const above = decideWindows(counts, levels, 1, now, own.refusedBy !== null);
  if (above.refusedBy === null) {
    const decided = own as Decision & { levels: LevelStates[] };
    decided.levels = above.states;
    return decided;
  }
  // A level refused what the key admitted: the key's windows as they stand, without it.
  const keyUsed = key.minute + carriedOver(key.previousMinute, now);
  return {
    refusedBy: above.refusedBy,
    refusedAt: above.refusedAt,
    minute: windowState("minute", limits.minute, keyUsed, true, now),
    day: windowState("day", limits.day, key.day, true, now),
    concurrency: { limit: limits.concurrency, inUse: key.inUse },
    levels: above.states,
  };
}

/** A window's state without counting a request, as dashboards show it. */
export function peekState(kind: WindowKind, limit: number, used: number, now: number): WindowState {
  return windowState(kind, limit, used, used < limit, now);
}

function windowState(kind: WindowKind, limit: number, used: number, success: boolean, now: number): WindowState {
  return { success, limit, remaining: Math.max(0, limit - used), reset: (bucketOf(kind, now) + 1) * WINDOW_MS[kind] };
}

export type TokenVerdict = {
  refusedBy: WindowKind | null;
  /** The subject that refused. */ refusedAt: number;
  states: LevelStates[];
};

/**
 * Decides a reservation of `tokens` against each subject's token windows (the key's, its levels'), from
 * their counts before it: subjects in order, minute before day; it fits a window when what the window holds
 * plus it is at most the limit. The states are those after it, as decide's are.
 */
export function decideTokens(
  counts: readonly LevelCounts[],
  subjects: readonly { limits: TokenLimits }[],
  tokens: number,
  now: number,
): TokenVerdict {
  return decideWindows(counts, subjects, tokens, now);
}

/**
 * The one decision of minute and day windows over several subjects, for `amount` more (a request counts
 * one, a reservation its tokens): it fits a window when what the window holds plus it is at most the
 * limit; the first window that does not refuses it, and then it counts nowhere. `blocked`: refused
 * already (by the key's own windows), so nothing is checked or counted. Plain loops and objects built
 * property by property: this runs on every request of a key with levels.
 */
function decideWindows(
  counts: readonly LevelCounts[],
  subjects: readonly { limits: TokenLimits }[],
  amount: number,
  now: number,
  blocked = false,
): TokenVerdict {
  const n = subjects.length;
  const minuteUsed = new Array<number>(n);
  let refusedAt = -1;
  let refusedBy: WindowKind | null = null;
  for (let i = 0; i < n; i++) {
    const c = counts[i]!;
    minuteUsed[i] = c.minute + carriedOver(c.previousMinute, now);
    if (blocked || refusedBy !== null) continue;
    const { minute, day } = subjects[i]!.limits;
    if (minute !== undefined && minuteUsed[i]! + amount > minute) [refusedAt, refusedBy] = [i, "minute"];
    else if (day !== undefined && c.day + amount > day) [refusedAt, refusedBy] = [i, "day"];
  }
  const taken = blocked || refusedBy !== null ? 0 : amount;
  const states = new Array<LevelStates>(n);
  for (let i = 0; i < n; i++) {
    const { minute, day } = subjects[i]!.limits;
    const refused = refusedAt === i ? refusedBy : null;
    const state: LevelStates = {};
    if (minute !== undefined)
      state.minute = windowState("minute", minute, minuteUsed[i]! + taken, refused !== "minute", now);
    if (day !== undefined) state.day = windowState("day", day, counts[i]!.day + taken, refused !== "day", now);
    states[i] = state;
  }
  return { refusedBy, refusedAt, states };
}
