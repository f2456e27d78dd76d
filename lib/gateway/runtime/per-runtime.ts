import type { Runtime } from "./runtime.ts";

/**
 * One `T` per runtime, made by `create` on first use and kept as long as the runtime is: for what an
 * area or the pool opens lazily (a browser, a worker pool, an index cache). Release it with rt.onClose.
 */
export function perRuntime<T>(create: (rt: Runtime) => T): (rt: Runtime) => T {
  const made = new WeakMap<Runtime, T>();
  return (rt) => {
    let value = made.get(rt);
    if (value === undefined) {
      value = create(rt);
      made.set(rt, value);
    }
    return value;
  };
}
