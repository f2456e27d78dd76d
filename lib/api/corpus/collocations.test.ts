import { describe, expect, it } from "vitest";
import { collocationsOf } from "./collocations.ts";
import { buildIndex } from "./inverted-index.ts";
import { corpusDocument as doc } from "./test-fixtures.ts";

// N = 8 tokens; the node "fast" occurs 3 times (positions 0, 3, 6); f(car) = 2, f(red) = f(old) = f(new) = 1.
const index = buildIndex([doc("one", "fast car red fast car old fast new")]);
const options = { window: 1, position: "all" as const, minFreq: 1, limit: 20 };

describe("collocationsOf", () => {
  it("computes MI and t-score from observed and expected counts (hand-computed)", () => {
    // Window 1 on both sides: S = 2 slots. car: O = 2, E = 3·2·2/8 = 1.5; red, old, new: O = 1, E = 3·1·2/8 = 0.75.
    const result = collocationsOf(index, "fast", options);
    expect(result.node_frequency).toBe(3);
    expect(result.collocates.map((c) => c.word)).toEqual(["car", "new", "old", "red"]);
    const [car, other] = result.collocates;
    expect(car!.frequency).toBe(2);
    expect(car!.mi).toBeCloseTo(Math.log2(2 / 1.5), 4);
    expect(car!.t_score).toBeCloseTo((2 - 1.5) / Math.sqrt(2), 4);
    expect(other!.mi).toBeCloseTo(Math.log2(1 / 0.75), 4);
    expect(other!.t_score).toBeCloseTo(0.25, 4);
  });

  it("counts one side only when asked, halving the expected count", () => {
    // Right of "fast": car, car, new. S = 1: E(car) = 0.75, E(new) = 0.375; equal MI, so the more frequent first.
    const right = collocationsOf(index, "fast", { ...options, position: "right" }).collocates;
    expect(right.map((c) => [c.word, c.frequency])).toEqual([
      ["car", 2],
      ["new", 1],
    ]);
    expect(right[0]!.mi).toBeCloseTo(Math.log2(2 / 0.75), 4);
    expect(right[0]!.t_score).toBeCloseTo((2 - 0.75) / Math.sqrt(2), 4);
    expect(right[1]!.mi).toBeCloseTo(Math.log2(1 / 0.375), 4);
    expect(right[1]!.t_score).toBeCloseTo(0.625, 4);
    const left = collocationsOf(index, "fast", { ...options, position: "left" }).collocates;
    expect(left.map((c) => c.word)).toEqual(["old", "red"]);
  });

  it("applies min_freq and limit after sorting by MI", () => {
    expect(collocationsOf(index, "fast", { ...options, minFreq: 2 }).collocates.map((c) => c.word)).toEqual(["car"]);
    const limited = collocationsOf(index, "fast", { ...options, limit: 2 });
    expect(limited.collocates).toHaveLength(2);
    expect(limited.candidates).toBe(4);
  });

  it("keeps windows inside the node's document and leaves the node out of its own collocates", () => {
    const two = buildIndex([doc("a", "alpha beta"), doc("b", "gamma gamma alpha"), doc("c", "delta")]);
    expect(collocationsOf(two, "gamma", { ...options, window: 3 }).collocates.map((c) => c.word)).toEqual(["alpha"]);
    expect(
      collocationsOf(two, "alpha", { ...options, window: 3 })
        .collocates.map((c) => c.word)
        .sort(),
    ).toEqual(["beta", "gamma"]);
  });
});
