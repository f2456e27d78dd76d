// The semantic cache of one runtime: its in-process index (vector-index.ts), rebuilt from the table
// (vector-table.ts) when first used and kept in step with it every few seconds (rows other instances
// wrote; expired rows deleted), and the writing of new vectors. A lookup is the index's alone: it never
// waits on the database. A failure of the table is logged and the cache answers from what it holds.
import type { Runtime } from "../../../gateway/runtime/runtime.ts";
import type { Neighbour, VectorEntry, VectorIndex } from "./vector-index.ts";
import { deleteExpiredVectors, deleteVectors, insertVector, vectorsAfter } from "./vector-table.ts";

// Rows read per query of the rebuild and the catching up: a page the event loop gets back from quickly.
const PAGE = 500;
const SLICE = 100;
// How often other instances' vectors are read in, and expired rows deleted.
const SYNC_EVERY_MS = 5_000;
// How long the first lookup waits for the rebuild: a small table is read in well within it; a large one
// goes on loading while requests are answered from what is in so far.
const FIRST_LOAD_WAIT_MS = 1_000;

export class SemanticCache {
  // Loaded with the first lookup: the native index (usearch) is never loaded by a process, or a bundle
  // (the portal's), that only clears the cache.
  private index: VectorIndex | undefined;
  private firstLoad: Promise<void> | undefined;
  private loaded = false;
  private syncing: Promise<void> | undefined;
  private watermark = 0n;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly rt: Runtime) {
    rt.onClose(async () => {
      this.closed = true;
      clearTimeout(this.timer);
      await Promise.all([this.firstLoad, this.syncing]);
    });
  }

  /** The nearest vector of the scope and partition, and how similar it is, once the rebuild had its chance. */
  async nearest(scope: string, partition: string, vector: Float32Array): Promise<Neighbour | undefined> {
    const waiting = this.started();
    if (waiting) await waiting;
    return this.index?.nearest(scope, partition, vector);
  }

  /**
   * Keeps a question's vector: in the index at once (a question asked again straight away finds it), and
   * in the table, so it outlives the process and reaches other instances.
   */
  async keep(entry: VectorEntry): Promise<void> {
    this.index?.add(entry);
    await insertVector(this.rt.db, entry);
  }

  /** Forgets a vector whose answer is gone from the exact cache: it can never answer again. */
  forget(id: bigint): void {
    this.index?.remove(id);
  }

  /** Drops a scope's vectors, or every vector, from the index (clearSemantic deletes the rows). */
  drop(scope: string | undefined): void {
    this.index?.clear(scope);
  }

  get size(): number {
    return this.index?.size ?? 0;
  }

  /** Starts the rebuild and the syncing on first use; waits for the rebuild a bounded time. */
  private started(): Promise<void> | undefined {
    if (this.loaded) return undefined;
    this.firstLoad ??= this.readIn()
      .catch((err) => this.rt.logger.warn({ err }, "reading the semantic cache's vectors failed; will retry"))
      .finally(() => {
        this.loaded = true;
        this.schedule();
      });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_LOAD_WAIT_MS)));
    return Promise.race([this.firstLoad, waited]).finally(() => clearTimeout(timer));
  }

  /** Reads every unexpired row past the watermark into the index, page by page. */
  private async readIn(): Promise<void> {
    if (!this.index) {
      const { VectorIndex } = await import("./vector-index.ts");
      this.index ??= new VectorIndex(this.rt.config.answerCache.semantic.maxEntries);
    }
    const index = this.index;
    for (;;) {
      if (this.closed) return;
      const page = await vectorsAfter(this.rt.db, this.watermark, PAGE);
      // The native index builds the graph on the event loop's thread, so it takes a page in slices and
      // lets the waiting requests have their turn between them (a slice of 1,536-dimension vectors holds
      // the loop about 25 ms).
      for (let from = 0; from < page.length; from += SLICE) {
        index.addMany(page.slice(from, from + SLICE));
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (page.length > 0) this.watermark = page[page.length - 1]!.rowId;
      if (page.length < PAGE) return;
    }
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.syncing = Promise.all([this.readIn(), deleteExpiredVectors(this.rt.db, PAGE)])
        .then(() => undefined)
        .catch((err) => this.rt.logger.warn({ err }, "syncing the semantic cache's vectors failed; will retry"))
        .finally(() => this.schedule());
    }, SYNC_EVERY_MS);
    this.timer.unref();
  }
}

// On the runtime under a registered symbol, as the answer store is (answer-cache.ts): the portal's
// bundle and the gateway's share one index.
const CACHE = Symbol.for("unified-gateway.semantic-cache");

export function semanticCache(rt: Runtime): SemanticCache {
  const holder = rt as Runtime & { [CACHE]?: SemanticCache };
  return (holder[CACHE] ??= new SemanticCache(rt));
}

/**
 * Deletes a scope's vectors, or every vector: from the table, and from this process's index if one was
 * built (clearing builds none). Another instance's index may hold them until its answers, cleared from
 * the shared store, are found gone at its next lookup.
 */
export async function clearSemantic(rt: Runtime, scope: string | undefined): Promise<number> {
  (rt as Runtime & { [CACHE]?: SemanticCache })[CACHE]?.drop(scope);
  return deleteVectors(rt.db, scope);
}
