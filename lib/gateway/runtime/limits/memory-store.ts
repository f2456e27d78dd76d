import { bucketOf, carriedOver, decide, peekState, type Counts } from "./decision.ts";
import {
  releaseOnce,
  type LimitStore,
  type Limits,
  type StoreDecision,
  type WindowKind,
  type WindowState,
} from "./windows.ts";

type Counter = { bucket: number; count: number; previous: number };

/**
 * In-process counters for a single instance, deciding with the same function as the Redis
 * store's script, so switching to Redis changes nothing a client sees.
 */
export class MemoryLimitStore implements LimitStore {
  private readonly counters = new Map<string, Counter>();
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async admit(keyId: string, limits: Limits): Promise<StoreDecision> {
    const now = this.now();
    const minute = this.roll(`minute:${keyId}`, bucketOf("minute", now));
    const day = this.roll(`day:${keyId}`, bucketOf("day", now));
    const counts: Counts = {
      minute: minute.count,
      previousMinute: minute.previous,
      day: day.count,
      inUse: this.inFlight.get(keyId) ?? 0,
    };
    const decision = decide(counts, limits, now);
    if (decision.refusedBy !== null) return { ...decision, refusedBy: decision.refusedBy };
    // Every window was checked above; only now is the request counted, in all of them at once.
    minute.count += 1;
    day.count += 1;
    this.inFlight.set(keyId, counts.inUse + 1);
    return { ...decision, refusedBy: null, release: releaseOnce(async () => this.release(keyId)) };
  }

  async peek(keyId: string, kind: WindowKind, limit: number): Promise<WindowState> {
    const now = this.now();
    const bucket = bucketOf(kind, now);
    const counter = this.counters.get(`${kind}:${keyId}`);
    const count = counter?.bucket === bucket ? counter.count : 0;
    const previous = counter?.bucket === bucket ? counter.previous : counter?.bucket === bucket - 1 ? counter.count : 0;
    const used = kind === "day" ? count : count + carriedOver(previous, now);
    return peekState(kind, limit, used, now);
  }

  async close(): Promise<void> {}

  private release(keyId: string): void {
    const inUse = (this.inFlight.get(keyId) ?? 0) - 1;
    if (inUse <= 0) this.inFlight.delete(keyId);
    else this.inFlight.set(keyId, inUse);
  }

  private roll(id: string, bucket: number): Counter {
    const counter = this.counters.get(id);
    if (!counter) {
      const fresh = { bucket, count: 0, previous: 0 };
      this.counters.set(id, fresh);
      return fresh;
    }
    if (counter.bucket !== bucket) {
      counter.previous = counter.bucket === bucket - 1 ? counter.count : 0;
      counter.count = 0;
      counter.bucket = bucket;
    }
    return counter;
  }
}
