/**
 * Runs the tasks given to it at most `max` at a time, the others waiting in the order they came.
 * A finishing task hands its slot straight to the next waiting one, so a task arriving meanwhile
 * cannot take it too and make `max + 1`.
 */
export function concurrencyLimit(max: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < max) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}
