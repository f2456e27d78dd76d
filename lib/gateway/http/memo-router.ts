import type { Result, Router } from "hono/router";

/** Paths longer than this are matched every time: a cache of them would be a cache of one-off probes. */
const MAX_PATH = 512;

/**
 * A Hono router that remembers what it matched, per method and path. The gateway's route table (about 500
 * routes, some with a `{source}` parameter beside literal siblings) is beyond Hono's RegExpRouter, so Hono
 * falls back to its TrieRouter, which walks the tree and sorts the handlers it finds on every request:
 * 2-6 µs a request for the same answer each time. A match depends on nothing but the method and the path,
 * and Hono only reads it, so the result is kept; a bounded number of paths (the cache starts over when full,
 * so a client sending endless distinct paths costs a re-match, never memory).
 */
export class MemoRouter<T> implements Router<T> {
  private readonly byMethod = new Map<string, Map<string, Result<T>>>();
  private size = 0;

  constructor(
    private readonly inner: Router<T>,
    private readonly maxEntries = 2048,
  ) {}

  get name(): string {
    return `MemoRouter(${this.inner.name})`;
  }

  add(method: string, path: string, handler: T): void {
    this.byMethod.clear();
    this.size = 0;
    this.inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    let paths = this.byMethod.get(method);
    const known = paths?.get(path);
    if (known) return known;
    const result = this.inner.match(method, path);
    if (path.length > MAX_PATH) return result;
    if (this.size >= this.maxEntries) {
      this.byMethod.clear();
      this.size = 0;
      paths = undefined;
    }
    if (!paths) this.byMethod.set(method, (paths = new Map()));
    paths.set(path, result);
    this.size += 1;
    return result;
  }
}
