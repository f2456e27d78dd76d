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

/**
 * Where limit counters live. The memory store and the Redis store run the same algorithms
 * (the day as a fixed window aligned to midnight UTC, the minute as a sliding window),
 * so a key behaves the same on one instance or many.
 */
export interface LimitStore {
  hit(keyId: string, kind: WindowKind, limit: number): Promise<WindowState>;
  /** The window's state now, without counting a request (dashboards). */
  peek(keyId: string, kind: WindowKind, limit: number): Promise<WindowState>;
  /** Takes a concurrency slot; false when all `max` are in use. */
  acquire(keyId: string, max: number): Promise<{ ok: boolean; inUse: number }>;
  release(keyId: string): Promise<void>;
  close(): Promise<void>;
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
