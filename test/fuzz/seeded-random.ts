/** A seeded generator (mulberry32): the same FUZZ_SEED gives the same inputs, so a failure can be replayed. */
export type Random = { next(): number; int(max: number): number; pick<T>(items: readonly T[]): T };

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  return { next, int, pick: (items) => items[int(items.length)]! };
}

/** Up to `count` items of `items`, chosen without repeats in a seeded order. */
export function sample<T>(items: readonly T[], count: number, random: Random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, count);
}
