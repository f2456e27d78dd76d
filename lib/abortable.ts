// Work that stops when a signal aborts: the agents, the Ollama runner and the summariser run their
// calls through these, so a client leaving ends them at once instead of after the slowest call.

/** `p`, or the signal's reason as soon as it aborts (p's own later outcome is then ignored). */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    p.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

/**
 * fn over items, at most `limit` at a time, results in the items' order. Once the signal aborts no
 * further item starts and the whole rejects with its reason; fn's own errors reject it too.
 */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      signal.throwIfAborted();
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await untilAborted(Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane)), signal);
  return results;
}
