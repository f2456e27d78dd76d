/** A source of uniform numbers in [0, 1), like Math.random; injectable so tests can seed it. */
export type RandomSource = () => number;

/** A uniform integer in [0, n). Clamped because a source may return exactly 1 by mistake. */
export function randomIndex(random: RandomSource, n: number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}

/**
 * Draws every item once, in random order, before any item comes again; then refills. The first
 * draw of a new bag never equals the last draw of the previous one, so no item ever comes twice in
 * a row (for bags of two or more items).
 *
 * The bag is a lazy Fisher–Yates shuffle over item positions: each draw is O(1), and refilling
 * costs nothing, which matters for the 30,000-name colour bag.
 */
export class ShuffleBag<T> {
  private readonly order: Uint32Array;
  private remaining = 0;
  /** The position of the item handed out last, and of the one before it (for putBack). */
  private last: number | undefined;
  private beforeLast: number | undefined;

  constructor(
    private readonly items: readonly T[],
    private readonly random: RandomSource = Math.random,
  ) {
    if (items.length === 0) throw new RangeError("a shuffle bag needs at least one item");
    this.order = Uint32Array.from(items.keys());
  }

  get size(): number {
    return this.items.length;
  }

  next(): T {
    return this.items[this.drawPosition()]!;
  }

  /**
   * `count` distinct items. Draws in bag order; only when the bag refills mid-request can a drawn
   * item repeat one already taken for this request, and such a draw is put back and redrawn.
   */
  take(count: number): T[] {
    if (count > this.items.length)
      throw new RangeError(`cannot take ${count} distinct items from a bag of ${this.items.length}`);
    const taken = new Set<number>();
    while (taken.size < count) {
      const index = this.drawPosition();
      if (taken.has(index)) this.putBack();
      else taken.add(index);
    }
    return [...taken].map((i) => this.items[i]!);
  }

  private drawPosition(): number {
    const n = this.items.length;
    if (this.remaining === 0) this.remaining = n;
    let j: number;
    if (this.remaining === n && this.last !== undefined && n > 1) {
      // A fresh bag: keep the previous bag's last item out of this first draw by parking it at the
      // end and choosing among the other n - 1 positions.
      const at = this.order.indexOf(this.last);
      this.swap(at, n - 1);
      j = randomIndex(this.random, n - 1);
    } else {
      j = randomIndex(this.random, this.remaining);
    }
    this.swap(j, this.remaining - 1);
    this.remaining -= 1;
    this.beforeLast = this.last;
    this.last = this.order[this.remaining]!;
    return this.last;
  }

  // Only valid straight after a draw: the drawn item sits just past the unconsumed part.
  private putBack(): void {
    this.remaining += 1;
    this.last = this.beforeLast;
  }

  private swap(a: number, b: number): void {
    const t = this.order[a]!;
    this.order[a] = this.order[b]!;
    this.order[b] = t;
  }
}
