import { describe, expect, it } from "vitest";
import { combineProfiles, frequencyOf, perMillion } from "./frequency.ts";
import { buildIndex } from "./inverted-index.ts";
import { corpusDocument } from "./test-fixtures.ts";

const doc = (id: string, year: number, register: string, text: string) =>
  corpusDocument(id, text, { year, register, genre: register });
const index = buildIndex([
  doc("a", 1961, "press", "the war and the peace"),
  doc("b", 1965, "fiction", "war war war"),
  doc("c", 1990, "press", "no such word here"),
]);

describe("frequencyOf", () => {
  it("counts a word overall and per decade and register, per million of each group's own tokens", () => {
    const profile = frequencyOf(index, "War");
    expect(profile).toMatchObject({ count: 4, tokens: 12, per_million: perMillion(4, 12) });
    expect(profile.by_decade).toEqual([
      { decade: 1960, count: 4, tokens: 8, per_million: 500_000 },
      { decade: 1990, count: 0, tokens: 4, per_million: 0 },
    ]);
    expect(profile.by_register).toEqual([
      { register: "fiction", count: 3, tokens: 3, per_million: 1_000_000 },
      { register: "press", count: 1, tokens: 9, per_million: 111_111.11 },
    ]);
  });

  it("counts phrases and wildcards too", () => {
    expect(frequencyOf(index, "the war").count).toBe(1);
    expect(frequencyOf(index, "w*").count).toBe(5);
  });

  it("adds profiles of several corpora per decade and register", () => {
    const other = buildIndex([doc("x", 1600, "drama", "war is war")]);
    const all = combineProfiles([frequencyOf(index, "war"), frequencyOf(other, "war")]);
    expect(all).toMatchObject({ count: 6, tokens: 15, per_million: 400_000 });
    expect(all.by_decade.map((d) => d.decade)).toEqual([1600, 1960, 1990]);
    expect(all.by_register[0]).toEqual({ register: "fiction", count: 3, tokens: 3, per_million: 1_000_000 });
  });
});
