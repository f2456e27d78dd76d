import { EventEmitter } from "node:events";

/** The reason a CallStop gives when its time is up, unless it was made with another. */
const noAnswerWithin = (ms: number) => new DOMException(`no answer within ${ms} ms`, "TimeoutError");

/**
 * The gateway's one way to stop upstream work: a time limit, a parent signal (the client leaving, a
 * task's cancel), and whoever holds it stopping the work, in one light object that undici's `request`
 * takes as its `signal` (an EventEmitter with `aborted` and `reason`).
 * Not an AbortSignal: on Node 20 each AbortSignal made costs ~3 µs, and V8 keeps it, with whatever
 * its listeners hold (the whole provider call), past two scavenges into old space (~400 bytes a
 * signal alone, measured with --trace-gc-nvp). A completion made two; replacing them with this took
 * its CPU from 188 to 147 µs (interleaved A/B, docs/adr/0057-provider-calls-stopped-by-a-call-stop.md).
 * `signal` makes a real AbortSignal for the APIs that take nothing else (fetch, the AI SDK), only when one is asked for.
 * Not `AbortSignal.any([parent, AbortSignal.timeout(ms)])` either: on Node 20 nothing holds the timeout
 * signal once it is combined, so the garbage collector can take it and its timer never fires (measured:
 * a provider that never answered held a chat for 90 s with a 2 s limit). A CallStop's own timer holds
 * it, so its time limit stands for as long as it is pending.
 *
 * Released (`release`) once the work it bounds is over: its timer goes, what it listens to lets it go,
 * and it never aborts after that.
 */
export class CallStop extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  /** Whether the followed signal stopped it (the client left), as against its time or its holder. */
  clientLeft = false;
  /** Whether its time limit stopped it. */
  timedOut = false;
  /** The W3C traceparent of the span this work runs under, when tracing is on: its outgoing request carries it. */
  traceparent: string | undefined = undefined;
  #released = false;
  #timer: NodeJS.Timeout | undefined;
  #controller: AbortController | undefined;
  #unfollow: (() => void) | undefined;

  /**
   * Stops itself `ms` from now (none given: only when told or followed) with `timeoutReason(ms)`, by
   * default a TimeoutError as `AbortSignal.timeout`'s is.
   */
  constructor(ms?: number, timeoutReason: (ms: number) => unknown = noAnswerWithin) {
    super();
    if (ms === undefined) return;
    this.#timer = setTimeout(() => {
      if (this.aborted || this.#released) return;
      this.timedOut = true;
      this.abort(timeoutReason(ms));
    }, ms);
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

  /**
   * Also stopped, with its reason, when `signal` aborts: the client's, or whatever the work answers to.
   * Follows one signal; none given, nothing changes.
   */
  follow(signal: AbortSignal | undefined): this {
    if (!signal) return this;
    if (signal.aborted) {
      this.leave(signal.reason);
      return this;
    }
    const onAbort = () => this.leave(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    this.#unfollow = () => signal.removeEventListener("abort", onAbort);
    return this;
  }

  /**
   * A stop for one attempt at this stop's work (the model router's retries and fallbacks): stopped when
   * this one is (the client left, the request's deadline), and after `ms` of its own if given. Whoever
   * holds the child releases it when the attempt ends, as completeOn does; this one lives on for the next.
   */
  child(ms?: number): CallStop {
    const child = new CallStop(ms);
    const stopChild = () => {
      child.timedOut = this.timedOut;
      if (this.clientLeft) child.leave(this.reason);
      else child.abort(this.reason);
    };
    if (this.aborted) {
      stopChild();
      return child;
    }
    this.once("abort", stopChild);
    child.#unfollow = () => this.off("abort", stopChild);
    return child;
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
