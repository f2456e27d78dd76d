import { EventEmitter } from "node:events";

/**
 * What stops a provider call: its deadline, the client leaving, or the relay giving up, in one light
 * object that undici's `request` takes as its `signal` (an EventEmitter with `aborted` and `reason`).
 * Not an AbortSignal: on Node 20 each AbortSignal made costs ~3 µs, and V8 keeps it, with whatever
 * its listeners hold (the whole provider call), past two scavenges into old space (~400 bytes a
 * signal alone, measured with --trace-gc-nvp). A completion made two; replacing them with this took
 * its CPU from 188 to 147 µs (interleaved A/B, docs/decisions.md, "provider calls without
 * AbortSignals"). `signal` makes a real AbortSignal for the APIs that take nothing else (fetch, the AI SDK), only when one is asked for.
 *
 * Released (`release`) once the work it bounds is over: its timer goes, what it listens to lets it go,
 * and it never aborts after that.
 */
export class CallStop extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  /** Whether the client left, as against the deadline passing or the relay stopping the call. */
  clientLeft = false;
  #released = false;
  #timer: NodeJS.Timeout;
  #controller: AbortController | undefined;
  #unfollow: (() => void) | undefined;

  constructor(ms: number) {
    super();
    this.#timer = setTimeout(() => this.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError")), ms);
    // A pending deadline never keeps the process alive on its own.
    this.#timer.unref();
  }

  abort(reason: unknown = new DOMException("This operation was aborted", "AbortError")): void {
    if (this.aborted || this.#released) return;
    this.aborted = true;
    this.reason = reason;
    this.release();
    this.emit("abort");
    this.#controller?.abort(reason);
  }

  /** The client has gone: the call stops, and says so. */
  leave(reason: unknown = new DOMException("The client left before the answer was complete", "AbortError")): void {
    if (this.aborted || this.#released) return;
    this.clientLeft = true;
    this.abort(reason);
  }

  /** Also stopped, with its reason, when the client's `signal` aborts (an AbortSignal the caller already has). */
  follow(signal: AbortSignal): this {
    if (signal.aborted) {
      this.leave(signal.reason);
      return this;
    }
    const onAbort = () => this.leave(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    this.#unfollow = () => signal.removeEventListener("abort", onAbort);
    return this;
  }

  /** The work it bounded is over: its timer and its listener go, and it will never abort. */
  release(): void {
    this.#released = true;
    clearTimeout(this.#timer);
    this.#unfollow?.();
    this.#unfollow = undefined;
  }

  /** A real AbortSignal that aborts with this stop, made on first use. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }
}

/** What a provider call may be stopped by: a CallStop, or an AbortSignal from elsewhere. */
export type StopSignal = CallStop | AbortSignal;
