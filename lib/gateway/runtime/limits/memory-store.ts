import { bucketOf, carriedOver, decide, decideLevels, decideTokens, peekState, type Decision } from "./decision.ts";
import type {
  LevelCheck,
  LimitStore,
  Limits,
  StoreDecision,
  TokenDecision,
  TokenSubject,
  WindowKind,
  WindowState,
} from "./windows.ts";

/** One key's counts in the minute window (its current and previous buckets) and the UTC day's. */
type WindowCounts = { minuteBucket: number; minute: number; previousMinute: number; dayBucket: number; day: number };

/** One key's requests: its windows and the slots in use. Its tokens, and each level's requests and tokens, are WindowCounts of their own. */
type KeyCounts = WindowCounts & { inUse: number };

/** Empty windows at `now`'s buckets. */
function windowsAt(now: number): WindowCounts {
  return {
    minuteBucket: bucketOf("minute", now),
    minute: 0,
    previousMinute: 0,
    dayBucket: bucketOf("day", now),
    day: 0,
  };
}

/** Moves each window of `counts` on to `now`'s bucket. */
function roll(counts: WindowCounts, now: number): void {
  const minuteBucket = bucketOf("minute", now);
  const dayBucket = bucketOf("day", now);
  if (counts.minuteBucket !== minuteBucket) {
    counts.previousMinute = counts.minuteBucket === minuteBucket - 1 ? counts.minute : 0;
    counts.minute = 0;
    counts.minuteBucket = minuteBucket;
  }
  if (counts.dayBucket !== dayBucket) {
    counts.day = 0;
    counts.dayBucket = dayBucket;
  }
}

/**
 * Adds `delta` to what was counted in the minute bucket `minuteBucket` (and, given `dayBucket`, in that
 * day), wherever the windows have moved since, never below zero: a count taken back or corrected.
 */
function recount(counts: WindowCounts, delta: number, minuteBucket: number, dayBucket?: number): void {
  if (counts.minuteBucket === minuteBucket) counts.minute = Math.max(0, counts.minute + delta);
  else if (counts.minuteBucket === minuteBucket + 1) counts.previousMinute = Math.max(0, counts.previousMinute + delta);
  if (counts.dayBucket === dayBucket) counts.day = Math.max(0, counts.day + delta);
}

const RELEASED = Promise.resolve();

/** `id`'s counters in `map`, made at `now` or moved on to it. */
function rolledIn(map: Map<string, WindowCounts>, id: string, now: number): WindowCounts {
  let counts = map.get(id);
  if (counts) roll(counts, now);
  else map.set(id, (counts = windowsAt(now)));
  return counts;
}

/**
 * In-process counters for a single instance, deciding with the same function as the Redis
 * store's script, so switching to Redis changes nothing a client sees. One record per key, found by
 * its id alone: this runs on every keyed request (no key strings built, no objects copied).
 */
export class MemoryLimitStore implements LimitStore {
  private readonly keys = new Map<string, KeyCounts>();
  private readonly tokens = new Map<string, WindowCounts>();
  private readonly levels = new Map<string, WindowCounts>();

  constructor(private readonly now: () => number = Date.now) {}

  admit(keyId: string, limits: Limits, levels?: readonly LevelCheck[]): Promise<StoreDecision> {
    const now = this.now();
    const counts = this.rolled(keyId, now);
    const above = levels?.length ? levels.map((l) => this.rolledLevel(l.id, now)) : undefined;
    const decision: Decision = above ? decideLevels(counts, limits, levels!, above, now) : decide(counts, limits, now);
    if (decision.refusedBy !== null) return Promise.resolve(decision as StoreDecision);
    // Every window was checked above; only now is the request counted, in all of them at once.
    counts.minute += 1;
    counts.day += 1;
    counts.inUse += 1;
    if (above)
      for (const c of above) {
        c.minute += 1;
        c.day += 1;
      }
    let released = false;
    let forgiven = false;
    const bucket = counts.minuteBucket;
    const admitted = decision as Decision & {
      refusedBy: null;
      release(): Promise<void>;
      forgiveMinute(): Promise<void>;
    };
    admitted.release = () => {
      if (!released) {
        released = true;
        counts.inUse -= 1;
      }
      return RELEASED;
    };
    admitted.forgiveMinute = () => {
      if (!forgiven) {
        forgiven = true;
        recount(counts, -1, bucket);
        if (above) for (const c of above) recount(c, -1, bucket);
      }
      return RELEASED;
    };
    return Promise.resolve(admitted);
  }

  reserveTokens(subjects: readonly TokenSubject[], tokens: number): Promise<TokenDecision> {
    const now = this.now();
    const counts = subjects.map((s) => this.rolledTokens(s.id, now));
    const verdict = decideTokens(counts, subjects, tokens, now);
    if (verdict.refusedBy !== null)
      return Promise.resolve({ states: verdict.states, refusedBy: verdict.refusedBy, refusedAt: verdict.refusedAt });
    for (const c of counts) {
      c.minute += tokens;
      c.day += tokens;
    }
    // Every subject's buckets roll together (same clock), so the first one's stand for all.
    const { minuteBucket, dayBucket } = counts[0] ?? windowsAt(now);
    let settled = false;
    const settle = (actual: number) => {
      if (!settled) {
        settled = true;
        for (const c of counts) recount(c, actual - tokens, minuteBucket, dayBucket);
      }
      return RELEASED;
    };
    return Promise.resolve({ states: verdict.states, refusedBy: null, settle });
  }

  async peek(keyId: string, kind: WindowKind, limit: number): Promise<WindowState> {
    const now = this.now();
    const counts = this.keys.get(keyId);
    const bucket = bucketOf(kind, now);
    if (kind === "day") return peekState(kind, limit, counts?.dayBucket === bucket ? counts.day : 0, now);
    const current = counts?.minuteBucket === bucket ? counts.minute : 0;
    const previous =
      counts?.minuteBucket === bucket ? counts.previousMinute : counts?.minuteBucket === bucket - 1 ? counts.minute : 0;
    return peekState(kind, limit, current + carriedOver(previous, now), now);
  }

  async close(): Promise<void> {}

  /** A subject's token counters with each window moved on to `now`'s bucket. */
  private rolledTokens(id: string, now: number): WindowCounts {
    return rolledIn(this.tokens, id, now);
  }

  /** A level's request counters with each window moved on to `now`'s bucket. */
  private rolledLevel(id: string, now: number): WindowCounts {
    return rolledIn(this.levels, id, now);
  }

  /** The key's counters with each window moved on to `now`'s bucket. */
  private rolled(keyId: string, now: number): KeyCounts {
    let counts = this.keys.get(keyId);
    if (counts) roll(counts, now);
    else this.keys.set(keyId, (counts = { ...windowsAt(now), inUse: 0 }));
    return counts;
  }
}
