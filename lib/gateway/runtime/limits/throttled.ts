/**
 * Wraps `emit` so it runs at most once per `intervalMs`, telling each run how many calls were
 * skipped since the last: one log line a minute while Redis is away, not one per request.
 */
export function throttled(
  intervalMs: number,
  emit: (skipped: number) => void,
  now: () => number = Date.now,
): () => void {
  let last = -Infinity;
  let skipped = 0;
  return () => {
    const t = now();
    if (t - last < intervalMs) {
      skipped += 1;
      return;
    }
    last = t;
    emit(skipped);
    skipped = 0;
  };
}
