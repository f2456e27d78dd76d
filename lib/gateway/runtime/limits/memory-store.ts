import { WINDOW_MS, type LimitStore, type WindowKind, type WindowState } from "./windows.ts";

type Counter = { window: number; count: number; previous: number };

/**
 * In-process counters for a single instance. The arithmetic mirrors @upstash/ratelimit's
 * fixedWindow (day) and slidingWindow (minute) scripts, so switching to Redis changes nothing a client sees.
 */
export class MemoryLimitStore implements LimitStore {
  private readonly counters = new Map<string, Counter>();
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async hit(keyId: string, kind: WindowKind, limit: number): Promise<WindowState> {
    const size = WINDOW_MS[kind];
    const now = this.now();
    const window = Math.floor(now / size);
    const reset = (window + 1) * size;
    const id = `${kind}:${keyId}`;
    const counter = this.roll(id, window);

    if (kind === "day") {
      counter.count += 1;
      return { success: counter.count <= limit, limit, remaining: Math.max(0, limit - counter.count), reset };
    }
    const weightedPrevious = Math.floor((1 - (now % size) / size) * counter.previous);
    if (weightedPrevious + counter.count >= limit) return { success: false, limit, remaining: 0, reset };
    counter.count += 1;
    return { success: true, limit, remaining: Math.max(0, limit - (counter.count + weightedPrevious)), reset };
  }

  async peek(keyId: string, kind: WindowKind, limit: number): Promise<WindowState> {
    const size = WINDOW_MS[kind];
    const now = this.now();
    const window = Math.floor(now / size);
    const counter = this.counters.get(`${kind}:${keyId}`);
    const count = counter?.window === window ? counter.count : 0;
    const previous = counter?.window === window ? counter.previous : counter?.window === window - 1 ? counter.count : 0;
    const used = kind === "day" ? count : count + Math.floor((1 - (now % size) / size) * previous);
    return { success: used < limit, limit, remaining: Math.max(0, limit - used), reset: (window + 1) * size };
  }

  async acquire(keyId: string, max: number): Promise<{ ok: boolean; inUse: number }> {
    const inUse = this.inFlight.get(keyId) ?? 0;
    if (inUse >= max) return { ok: false, inUse };
    this.inFlight.set(keyId, inUse + 1);
    return { ok: true, inUse: inUse + 1 };
  }

  async release(keyId: string): Promise<void> {
    const inUse = (this.inFlight.get(keyId) ?? 1) - 1;
    if (inUse <= 0) this.inFlight.delete(keyId);
    else this.inFlight.set(keyId, inUse);
  }

  async close(): Promise<void> {}

  private roll(id: string, window: number): Counter {
    const counter = this.counters.get(id);
    if (!counter) {
      const fresh = { window, count: 0, previous: 0 };
      this.counters.set(id, fresh);
      return fresh;
    }
    if (counter.window !== window) {
      counter.previous = counter.window === window - 1 ? counter.count : 0;
      counter.count = 0;
      counter.window = window;
    }
    return counter;
  }
}
