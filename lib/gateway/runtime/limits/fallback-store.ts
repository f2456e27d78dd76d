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

/** Why a request was counted in memory rather than on the shared store. */
export type FallbackReason = "error" | "timeout" | "unavailable";

export type FallbackOptions = {
  /** How long the shared store has to answer before this request is counted in memory. */
  timeoutMs: number;
  /** After a failure, requests go straight to memory for this long, then the shared store is tried again. */
  retryMs: number;
  /** Once per request counted in memory. */
  onFallback(reason: FallbackReason, err?: unknown): void;
  /** When the shared store answers again after failing. */
  onRecover(): void;
  now?: () => number;
};

class Timeout extends Error {
  constructor(ms: number) {
    super(`limit store did not answer within ${ms} ms`);
  }
}

/**
 * Keeps requests flowing when Redis errs or is slow: each is then counted by this instance alone
 * (limits per instance, not shared) until Redis answers again. A request is never refused or
 * failed because Redis is away. See docs/adr/0016-limits-fall-back-to-memory-when-redis-is-away.md.
 */
export class FallbackLimitStore implements LimitStore {
  private downUntil = 0;
  private failing = false;
  private readonly now: () => number;

  constructor(
    private readonly shared: LimitStore,
    private readonly local: LimitStore,
    private readonly options: FallbackOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  admit(keyId: string, limits: Limits, levels?: readonly LevelCheck[]): Promise<StoreDecision> {
    return this.either(
      () => this.shared.admit(keyId, limits, levels),
      () => this.local.admit(keyId, limits, levels),
      // Counted on Redis after we gave up waiting: give the slot back rather than hold it until its TTL.
      (late) => void (late.refusedBy === null && late.release().catch(() => {})),
    );
  }

  reserveTokens(subjects: readonly TokenSubject[], tokens: number): Promise<TokenDecision> {
    return this.either(
      () => this.shared.reserveTokens(subjects, tokens),
      () => this.local.reserveTokens(subjects, tokens),
      // Reserved on Redis after we gave up waiting: give it back rather than hold it for the window.
      (late) => void (late.refusedBy === null && late.settle(0).catch(() => {})),
    );
  }

  peek(keyId: string, kind: WindowKind, limit: number): Promise<WindowState> {
    return this.either(
      () => this.shared.peek(keyId, kind, limit),
      () => this.local.peek(keyId, kind, limit),
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.shared.close(), this.local.close()]);
  }

  private async either<T>(shared: () => Promise<T>, local: () => Promise<T>, onLate?: (late: T) => void): Promise<T> {
    if (this.now() < this.downUntil) {
      this.options.onFallback("unavailable");
      return local();
    }
    try {
      const answer = await withTimeout(shared(), this.options.timeoutMs, onLate);
      if (this.failing) {
        this.failing = false;
        this.options.onRecover();
      }
      return answer;
    } catch (err) {
      this.failing = true;
      this.downUntil = this.now() + this.options.retryMs;
      this.options.onFallback(err instanceof Timeout ? "timeout" : "error", err);
      return local();
    }
  }
}

function withTimeout<T>(work: Promise<T>, ms: number, onLate?: (late: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(new Timeout(ms));
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        if (timedOut) onLate?.(value);
        else resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
