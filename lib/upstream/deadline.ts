/**
 * `signal` (when given) or `ms` elapsed, whichever comes first; past `ms` the reason is a TimeoutError,
 * as `AbortSignal.timeout`'s is. Not `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: on Node 20
 * nothing holds the timeout signal once it is combined, so the garbage collector can take it and its
 * timer never fires (measured: a provider that never answered held a chat for 90 s with a 2 s limit).
 * Here the timer holds the controller, so the deadline stands as long as it is pending.
 */
export function withDeadline(signal: AbortSignal | undefined, ms: number): AbortSignal {
  return deadlineController(signal, ms).signal;
}

/**
 * withDeadline's controller, for a call its holder may also stop (a relay giving up, a client leaving a
 * stream): one controller for all three, where a controller of its own, `AbortSignal.any` and the
 * deadline's controller each cost a streamed call its share of ~70 µs CPU (profiled). Released with
 * releaseDeadline(controller.signal); aborting it releases it too.
 */
export function deadlineController(signal: AbortSignal | undefined, ms: number): AbortController {
  const controller = new AbortController();
  if (signal?.aborted) {
    controller.abort(signal.reason);
    return controller;
  }
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError")), ms);
  // A pending deadline never keeps the process alive on its own.
  timer.unref();
  const onAbort = () => {
    clearTimeout(timer);
    controller.abort(signal!.reason);
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  const release = () => {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  };
  controller.signal.addEventListener("abort", release, { once: true });
  releases.set(controller.signal, release);
  return controller;
}

// A deadline's timer holds its controller, and the listener on `signal` holds both, until it fires:
// one left pending per finished call would keep ~LLM_TIMEOUT_MS worth of calls in memory under load.
const releases = new WeakMap<AbortSignal, () => void>();

/** The work a deadline bounded is over: its timer and its listener go, and it will never abort. */
export function releaseDeadline(deadline: AbortSignal): void {
  releases.get(deadline)?.();
  releases.delete(deadline);
}
