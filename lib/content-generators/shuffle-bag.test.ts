import { describe, expect, it } from "vitest";
import { randomIndex, ShuffleBag } from "./shuffle-bag.ts";
import { seeded } from "./test-random.ts";

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("ShuffleBag", () => {
  it("hands out every item exactly once per cycle", () => {
    const bag = new ShuffleBag(range(50), seeded(1));
    for (let cycle = 0; cycle < 20; cycle++) {
      const drawn = range(50).map(() => bag.next());
      expect(new Set(drawn).size).toBe(50);
    }
  });

  it("never repeats an item back to back across many refills", () => {
    for (const size of [2, 3, 7]) {
      const bag = new ShuffleBag(range(size), seeded(size));
      let previous = bag.next();
      let repeats = 0;
      for (let i = 0; i < size * 2000; i++) {
        const item = bag.next();
        if (item === previous) repeats++;
        previous = item;
      }
      expect(repeats).toBe(0);
    }
  });

  it("keeps the rule even when the random source keeps choosing the previous bag's last item", () => {
    // A source that always says "position 0" is the worst case: a finished bag leaves its last item there.
    const bag = new ShuffleBag(["a", "b", "c"], () => 0);
    const seen = range(30).map(() => bag.next());
    seen.slice(1).forEach((item, i) => expect(item).not.toBe(seen[i]));
  });

  it("is not a fixed order: different seeds give different sequences", () => {
    const a = range(20).map(
      (
        (bag) => () =>
          bag.next()
      )(new ShuffleBag(range(20), seeded(7))),
    );
    const b = range(20).map(
      (
        (bag) => () =>
          bag.next()
      )(new ShuffleBag(range(20), seeded(8))),
    );
    expect(a).not.toEqual(b);
  });

  it("draws a single-item bag forever", () => {
    const bag = new ShuffleBag(["only"], seeded(3));
    expect([bag.next(), bag.next(), bag.next()]).toEqual(["only", "only", "only"]);
  });

  it("takes distinct items, also when the bag refills in the middle of a take", () => {
    const bag = new ShuffleBag(range(10), seeded(4));
    let previous: number | undefined;
    for (let i = 0; i < 500; i++) {
      const items = bag.take(7);
      expect(new Set(items).size).toBe(7);
      expect(items[0]).not.toBe(previous);
      previous = items.at(-1);
    }
  });

  it("takes continue the bag's cycle: two takes that fill the bag cover it exactly", () => {
    const bag = new ShuffleBag(range(12), seeded(5));
    const both = [...bag.take(5), ...bag.take(7)];
    expect(new Set(both).size).toBe(12);
  });

  it("refuses impossible requests", () => {
    expect(() => new ShuffleBag([])).toThrow(RangeError);
    expect(() => new ShuffleBag([1, 2]).take(3)).toThrow(RangeError);
  });

  it("randomIndex stays in range even for a source that returns 1", () => {
    expect(randomIndex(() => 1, 5)).toBe(4);
    expect(randomIndex(() => 0, 5)).toBe(0);
  });
});
