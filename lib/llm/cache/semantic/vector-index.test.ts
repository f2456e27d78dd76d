import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../../test/fuzz/seeded-random.ts";
import { VectorIndex, type VectorEntry } from "./vector-index.ts";

const unit = (...xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs, (x) => x / n);
};
let next = 1;
const entry = (vector: Float32Array, extra: Partial<VectorEntry> = {}): VectorEntry => ({
  scope: "k:a",
  partition: "p",
  answerKey: `answer-${next++}`,
  expiresAt: Date.now() + 60_000,
  vector,
  ...extra,
});

describe("VectorIndex", () => {
  it("finds the nearest entry of the scope and partition, with its cosine similarity", () => {
    const index = new VectorIndex(100);
    const near = entry(unit(1, 0, 0, 0));
    index.add(near);
    index.add(entry(unit(0, 1, 0, 0)));
    const found = index.nearest("k:a", "p", unit(0.95, 0.05, 0, 0));
    expect(found?.answerKey).toBe(near.answerKey);
    expect(found!.similarity).toBeCloseTo(0.9986, 2);
    // Same vector, another owner or another partition: nothing.
    expect(index.nearest("k:b", "p", unit(1, 0, 0, 0))).toBeUndefined();
    expect(index.nearest("k:a", "q", unit(1, 0, 0, 0))).toBeUndefined();
  });

  it("never answers with an expired entry, and lets the oldest go beyond its bound", () => {
    const index = new VectorIndex(2);
    const now = Date.now();
    index.add(entry(unit(1, 0, 0, 0), { expiresAt: now + 10 }), now);
    expect(index.nearest("k:a", "p", unit(1, 0, 0, 0), now + 11)).toBeUndefined();
    expect(index.size).toBe(0);
    index.add(entry(unit(1, 0, 0, 0)));
    index.add(entry(unit(0, 1, 0, 0)));
    index.add(entry(unit(0, 0, 1, 0)));
    expect(index.size).toBe(2);
    expect(index.nearest("k:a", "p", unit(1, 0, 0, 0))!.similarity).toBeLessThan(0.5);
  });

  it("clears one scope's entries or all, and removes one", () => {
    const index = new VectorIndex(100);
    const mine = entry(unit(1, 1, 0, 0));
    index.add(mine);
    index.add(entry(unit(1, 1, 0, 0), { scope: "k:b" }));
    expect(index.clear("k:a")).toBe(1);
    expect(index.nearest("k:a", "p", unit(1, 1, 0, 0))).toBeUndefined();
    expect(index.nearest("k:b", "p", unit(1, 1, 0, 0))).toBeDefined();
    const id = index.add(entry(unit(0, 0, 1, 1), { scope: "k:b" }))!;
    index.remove(id);
    expect(index.nearest("k:b", "p", unit(0, 0, 1, 1))?.id).not.toBe(id);
    expect(index.clear()).toBe(1);
  });

  it("holds one question's vector once, however often it is added", () => {
    const index = new VectorIndex(100);
    const e = entry(unit(1, 2, 3, 4));
    expect(index.add({ ...e })).toBe(index.add({ ...e }));
    expect(index.size).toBe(1);
  });

  it("adds a page of entries at once, each group's in one native call, and finds every one", () => {
    const index = new VectorIndex(1_000);
    const random = seededRandom(20261205);
    const page = Array.from({ length: 300 }, (_, i) =>
      entry(unit(...Array.from({ length: 16 }, () => random.next() - 0.5)), {
        partition: i % 2 ? "odd" : "even",
      }),
    );
    const ids = index.addMany(page);
    expect(new Set(ids).size).toBe(300);
    for (const [i, e] of page.entries())
      expect(index.nearest("k:a", e.partition, e.vector)?.answerKey, `entry ${i}`).toBe(e.answerKey);
  });

  it("ignores a vector whose length its group does not have", () => {
    const index = new VectorIndex(100);
    index.add(entry(unit(1, 0, 0, 0)));
    index.add(entry(unit(1, 0, 0)));
    expect(index.size).toBe(1);
    expect(index.nearest("k:a", "p", unit(1, 0, 0))).toBeUndefined();
  });
});
