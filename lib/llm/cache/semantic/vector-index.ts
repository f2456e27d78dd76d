// The semantic cache's in-process index: one HNSW graph (usearch) per scope and partition, so a
// search only ever meets vectors of the same owner and the same question-but-for-its-prompt, and a
// lookup is a few hundred microseconds of native code over any number of entries. Entries are kept in
// the order they were added, which is the order they expire (one TTL for all): the oldest go first,
// whether because they expired or because the index is full.
import { createRequire } from "node:module";
import type usearchModule from "usearch";

// Through require: the package finds its native build from __dirname, which only its CommonJS build is
// sure to have (its ES module guesses from a stack trace, and guesses wrong under a test runner's loader).
const { Index, MetricKind, ScalarKind } = createRequire(import.meta.url)("usearch") as typeof usearchModule;
type UsearchIndex = InstanceType<typeof Index>;

export type VectorEntry = {
  scope: string;
  partition: string;
  /** The exact cache's key of the answer this question got. */
  answerKey: string;
  /** Epoch ms. */
  expiresAt: number;
  vector: Float32Array;
};

export type Neighbour = { id: bigint; answerKey: string; similarity: number };

type Group = { index: UsearchIndex; dims: number; size: number };
type Kept = { group: Group; groupKey: string; entryKey: string; scope: string; answerKey: string; expiresAt: number };

// HNSW's usual settings: 16 links a node, 64 candidates looked at when adding and searching. Half
// precision halves the memory (1,536 dimensions: 3 KB a vector) at no cost a threshold can see.
const CONNECTIVITY = 16;
const EXPANSION_ADD = 64;
const EXPANSION_SEARCH = 64;

const groupKeyOf = (scope: string, partition: string) => `${scope}\n${partition}`;

/**
 * The index's ids are its own, given as entries are added: an instance adds its own vectors the moment
 * their answer is kept, before the table has given them a row, and meets them again as rows when it
 * reads the table in; one question's vector (its scope, partition and answer) is held once.
 */

export class VectorIndex {
  private readonly groups = new Map<string, Group>();
  // Insertion order is expiry order: the head is the next to go.
  private readonly entries = new Map<bigint, Kept>();
  private readonly byEntry = new Map<string, bigint>();
  private nextId = 1n;

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** Adds an entry (one already held is left as it is), then lets the expired and the oldest beyond the bound go; returns its id. */
  add(entry: VectorEntry, now = Date.now()): bigint | undefined {
    return this.addMany([entry], now)[0];
  }

  /**
   * Adds entries as `add` does, each group's in one call to the native index; returns their ids in order.
   * The call builds on one thread: usearch's multi-threaded batch add leaves about one node in 500 that
   * no search reaches (measured on 2.26 with 150 to 2,000 vectors of 16 to 256 dimensions), a cached
   * answer lost to every later question.
   */
  addMany(entries: readonly VectorEntry[], now = Date.now()): (bigint | undefined)[] {
    const ids: (bigint | undefined)[] = [];
    const batches = new Map<Group, { ids: bigint[]; vectors: Float32Array[] }>();
    for (const entry of entries) {
      const groupKey = groupKeyOf(entry.scope, entry.partition);
      const entryKey = `${groupKey}\n${entry.answerKey}`;
      const held = this.byEntry.get(entryKey);
      const group = held === undefined ? this.groupFor(groupKey, entry, now) : undefined;
      if (!group) {
        ids.push(held);
        continue;
      }
      const id = this.nextId++;
      group.size++;
      this.byEntry.set(entryKey, id);
      this.entries.set(id, {
        group,
        groupKey,
        entryKey,
        scope: entry.scope,
        answerKey: entry.answerKey,
        expiresAt: entry.expiresAt,
      });
      let batch = batches.get(group);
      if (!batch) batches.set(group, (batch = { ids: [], vectors: [] }));
      batch.ids.push(id);
      batch.vectors.push(entry.vector);
      ids.push(id);
    }
    for (const [group, batch] of batches) {
      if (batch.ids.length === 1) group.index.add(batch.ids[0]!, batch.vectors[0]!);
      else {
        const matrix = new Float32Array(batch.ids.length * group.dims);
        batch.vectors.forEach((v, i) => matrix.set(v, i * group.dims));
        group.index.add(BigUint64Array.from(batch.ids), matrix, 1);
      }
    }
    this.sweep(now);
    return ids;
  }

  /** The group an entry goes to, made if it is the first; undefined for an entry that cannot go in. */
  private groupFor(groupKey: string, entry: VectorEntry, now: number): Group | undefined {
    if (entry.vector.length === 0 || entry.expiresAt <= now) return undefined;
    let group = this.groups.get(groupKey);
    if (group) return group.dims === entry.vector.length ? group : undefined;
    group = {
      index: new Index({
        dimensions: entry.vector.length,
        metric: MetricKind.Cos,
        quantization: ScalarKind.F16,
        connectivity: CONNECTIVITY,
        expansion_add: EXPANSION_ADD,
        expansion_search: EXPANSION_SEARCH,
        multi: false,
      }),
      dims: entry.vector.length,
      size: 0,
    };
    this.groups.set(groupKey, group);
    return group;
  }

  /** The nearest unexpired entry of the scope and partition, if any; its similarity is the cosine (1 is the same direction). */
  nearest(scope: string, partition: string, vector: Float32Array, now = Date.now()): Neighbour | undefined {
    const group = this.groups.get(groupKeyOf(scope, partition));
    if (!group || group.dims !== vector.length || group.size === 0) return undefined;
    const found = group.index.search(vector, 1, 1);
    if (found.keys.length === 0) return undefined;
    const id = found.keys[0]!;
    const kept = this.entries.get(id);
    if (!kept) return undefined;
    if (kept.expiresAt <= now) {
      this.sweep(now);
      return undefined;
    }
    return { id, answerKey: kept.answerKey, similarity: 1 - found.distances[0]! };
  }

  remove(id: bigint): void {
    const kept = this.entries.get(id);
    if (!kept) return;
    this.entries.delete(id);
    this.byEntry.delete(kept.entryKey);
    kept.group.index.remove(id);
    if (--kept.group.size === 0) this.groups.delete(kept.groupKey);
  }

  /** Drops a scope's entries, or every entry; returns how many went. */
  clear(scope?: string): number {
    if (scope === undefined) {
      const n = this.entries.size;
      this.entries.clear();
      this.byEntry.clear();
      this.groups.clear();
      return n;
    }
    let n = 0;
    for (const [id, kept] of this.entries)
      if (kept.scope === scope) {
        this.remove(id);
        n++;
      }
    return n;
  }

  /** Lets the expired entries at the head go, and the oldest beyond the bound. */
  private sweep(now: number): void {
    for (const [id, kept] of this.entries) {
      if (kept.expiresAt > now && this.entries.size <= this.maxEntries) return;
      this.remove(id);
    }
  }
}
