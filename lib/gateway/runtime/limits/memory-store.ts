import { bucketOf, carriedOver, decide, peekState, type Decision } from "./decision.ts";
import type { LimitStore, Limits, StoreDecision, WindowKind, WindowState } from "./windows.ts";

/** One key's counters: the minute's current and previous buckets, the UTC day, slots in use. */
type KeyCounts = {
  minuteBucket: number;
  minute: number;
  previousMinute: number;
  dayBucket: number;
  day: number;
  inUse: number;
};

const RELEASED = Promise.resolve();

/**
 * In-process counters for a single instance, deciding with the same function as the Redis
 * store's script, so switching to Redis changes nothing a client sees. One record per key, found by
 * its id alone: this runs on every keyed request (no key strings built, no objects copied).
 */
export class MemoryLimitStore implements LimitStore {
  private readonly keys = new Map<string, KeyCounts>();

  constructor(private readonly now: () => number = Date.now) {}

  admit(keyId: string, limits: Limits): Promise<StoreDecision> {
    const now = this.now();
    const counts = this.rolled(keyId, now);
    const decision: Decision = decide(counts, limits, now);
    if (decision.refusedBy !== null) return Promise.resolve(decision as StoreDecision);
    // Every window was checked above; only now is the request counted, in all of them at once.
    counts.minute += 1;
    counts.day += 1;
    counts.inUse += 1;
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
        // The bucket it was counted in, wherever the window has moved since.
        if (counts.minuteBucket === bucket && counts.minute > 0) counts.minute -= 1;
        else if (counts.minuteBucket === bucket + 1 && counts.previousMinute > 0) counts.previousMinute -= 1;
      }
      return RELEASED;
    };
    return Promise.resolve(admitted);
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

  /** The key's counters with each window moved on to `now`'s bucket. */
  private rolled(keyId: string, now: number): KeyCounts {
    const minuteBucket = bucketOf("minute", now);
    const dayBucket = bucketOf("day", now);
    let counts = this.keys.get(keyId);
    if (!counts) {
      counts = { minuteBucket, minute: 0, previousMinute: 0, dayBucket, day: 0, inUse: 0 };
      this.keys.set(keyId, counts);
      return counts;
    }
    if (counts.minuteBucket !== minuteBucket) {
      counts.previousMinute = counts.minuteBucket === minuteBucket - 1 ? counts.minute : 0;
      counts.minute = 0;
      counts.minuteBucket = minuteBucket;
    }
    if (counts.dayBucket !== dayBucket) {
      counts.day = 0;
      counts.dayBucket = dayBucket;
    }
    return counts;
  }
}
