import { CallStop } from "./call-stop.ts";

/**
 * `signal` (when given) or `ms` elapsed, whichever comes first; past `ms` the reason is a TimeoutError,
 * as `AbortSignal.timeout`'s is, and a caller's abort keeps its reason. Not
 * `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: on Node 20 nothing holds the timeout signal once
 * it is combined, so the garbage collector can take it and its timer never fires (measured: a provider
 * that never answered held a chat for 90 s with a 2 s limit). Here the CallStop's timer holds it, so the
 * deadline stands as long as it is pending. For a call that can take a CallStop itself (undici), use one.
 */
export function withDeadline(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const stop = new CallStop(ms);
  return (signal ? stop.follow(signal) : stop).signal;
}
