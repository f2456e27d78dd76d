/** How an attempt on a deployment ended, for its breaker: "not-counted" is our own excess or a cancel. */
export type BreakerOutcome = "success" | "failure" | "not-counted";

export type BreakerState = "closed" | "open" | "half-open";

/** Circuit breakers per deployment (by name). `allows` is the hot path: local state only, no I/O. */
export interface BreakerBoard {
  /** Whether a request may go to the deployment now. In half-open, true for one probe at a time. */
  allows(name: string): boolean;
  record(name: string, outcome: BreakerOutcome): void;
  state(name: string): BreakerState;
  close(): Promise<void>;
}

export type BreakerOptions = {
  /** Failures within `windowMs` that open a breaker. */
  threshold: number;
  windowMs: number;
  /** How long an open breaker refuses before it lets a probe through. */
  cooldownMs: number;
  /** A probe that never reports back frees its turn after this long. */
  probeTimeoutMs: number;
  now?: () => number;
};

export const DEFAULT_BREAKER_OPTIONS: BreakerOptions = {
  threshold: 5,
  windowMs: 30_000,
  cooldownMs: 15_000,
  probeTimeoutMs: 30_000,
};

/**
 * One open breaker as this instance sees it; a closed one has none, so the healthy path is one Map
 * miss. `probe`: none taken, being claimed (shared boards), claimed and not yet sent, or sent.
 */
export type Circuit = {
  until: number;
  probe: "none" | "claiming" | "ready" | "out";
  /** When a claimed or sent probe's turn lapses. */
  probeUntil: number;
  /** Shared boards: when to ask for the probe again after another instance held it. */
  nextClaimAt: number;
};

/**
 * The state machine every board shares: closed → open (on `open`) → half-open once the cooldown is
 * over → closed on a probe's success, open again on its failure. Boards decide when to open and who
 * probes; this keeps what one instance knows.
 */
export class Circuits {
  readonly open = new Map<string, Circuit>();
  constructor(readonly now: () => number) {}

  state(name: string): BreakerState {
    const circuit = this.open.get(name);
    if (!circuit) return "closed";
    return this.now() < circuit.until ? "open" : "half-open";
  }

  setOpen(name: string, until: number): void {
    const circuit = this.open.get(name);
    if (circuit) {
      // The same opening heard again (our own message, a resync) keeps the probe already taken.
      if (circuit.until === until) return;
      circuit.until = until;
      circuit.probe = "none";
      circuit.nextClaimAt = 0;
    } else this.open.set(name, { until, probe: "none", probeUntil: 0, nextClaimAt: 0 });
  }

  setClosed(name: string): void {
    this.open.delete(name);
  }

  /**
   * In half-open, a claimed probe lapses after its time (its holder never reported back), so another
   * can be taken; returns the circuit, or undefined when the breaker is closed or still cooling down.
   */
  halfOpen(name: string, now: number): Circuit | undefined {
    const circuit = this.open.get(name);
    if (!circuit || now < circuit.until) return undefined;
    if ((circuit.probe === "ready" || circuit.probe === "out") && now >= circuit.probeUntil) circuit.probe = "none";
    return circuit;
  }
}

/** The failures within the window, oldest first; at most `threshold` kept. */
export function countFailure(times: number[], now: number, options: BreakerOptions): boolean {
  while (times.length && (times[0]! <= now - options.windowMs || times.length >= options.threshold)) times.shift();
  times.push(now);
  return times.length >= options.threshold;
}

/** Breakers for one instance alone (no REDIS_URL). */
export class MemoryBreakerBoard implements BreakerBoard {
  private readonly options: BreakerOptions;
  private readonly circuits: Circuits;
  private readonly failures = new Map<string, number[]>();

  constructor(options: Partial<BreakerOptions> = {}) {
    this.options = { ...DEFAULT_BREAKER_OPTIONS, ...options };
    this.circuits = new Circuits(this.options.now ?? Date.now);
  }

  allows(name: string): boolean {
    if (this.circuits.open.size === 0) return true;
    const circuit = this.circuits.open.get(name);
    if (!circuit) return true;
    const now = this.circuits.now();
    const half = this.circuits.halfOpen(name, now);
    if (!half || half.probe !== "none") return false;
    half.probe = "out";
    half.probeUntil = now + this.options.probeTimeoutMs;
    return true;
  }

  record(name: string, outcome: BreakerOutcome): void {
    const circuit = this.circuits.open.get(name);
    if (!circuit) {
      if (outcome !== "failure") return;
      const now = this.circuits.now();
      let times = this.failures.get(name);
      if (!times) this.failures.set(name, (times = []));
      if (countFailure(times, now, this.options)) {
        this.failures.delete(name);
        this.circuits.setOpen(name, now + this.options.cooldownMs);
      }
      return;
    }
    const now = this.circuits.now();
    // Answers from requests sent before the breaker opened change nothing while it cools down.
    if (now < circuit.until) return;
    if (outcome === "success") this.circuits.setClosed(name);
    else if (outcome === "failure") this.circuits.setOpen(name, now + this.options.cooldownMs);
    else if (circuit.probe === "out") circuit.probe = "none";
  }

  state(name: string): BreakerState {
    return this.circuits.state(name);
  }

  async close(): Promise<void> {}
}
