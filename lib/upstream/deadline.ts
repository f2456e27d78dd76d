/**
 * `signal` (when given) or `ms` elapsed, whichever comes first; past `ms` the reason is a TimeoutError,
 * as `AbortSignal.timeout`'s is. Not `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: on Node 20
 * nothing holds the timeout signal once it is combined, so the garbage collector can take it and its
 * timer never fires (measured: a provider that never answered held a chat for 90 s with a 2 s limit).
 * Here the timer holds the controller, so the deadline stands as long as it is pending.
 */
export function withDeadline(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const controller = new AbortController();
  if (signal?.aborted) {
    controller.abort(signal.reason);
    return controller.signal;
  }
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError")), ms);
  // A pending deadline never keeps the process alive on its own.
  timer.unref();
  const onAbort = () => {
    clearTimeout(timer);
    controller.abort(signal!.reason);
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  controller.signal.addEventListener(
    "abort",
    () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
    { once: true },
  );
  return controller.signal;
}
