import { describe, expect, it } from "vitest";
import {
  createPhonemeIndexBuilder,
  describeInventory,
  filterSegments,
  inventoriesOf,
  languageSegments,
  phonemeRowCount,
  segmentRecord,
} from "./phoible.ts";
import { consonant, inventory, phonemeIndex, tone, vowel, type Phoneme } from "./test-fixtures.ts";

const P = consonant("p", "stop", "bilabial", false);
const K = consonant("k", "stop", "velar", false);
const NG = consonant("ŋ", "nasal", "velar", true);
const I = vowel("i", "close", "front", false);
const A = vowel("a", "open", "central", false);
const H = tone("˥");

// Inventories 1 and 2 are two descriptions of one language (aaa); 3 is another language's.
const INVENTORIES = [inventory(3, "ccc", "cccc1234"), inventory(1, "aaa", "aaaa1234"), inventory(2, "aaa", "aaaa1235")];
const ROWS: [number, Phoneme, boolean][] = [
  [1, P, false],
  [1, K, false],
  [1, I, false],
  [1, A, false],
  [3, P, false],
  [3, NG, true],
  [3, A, false],
  [3, H, false],
  [2, P, false],
  [2, K, true],
  [2, A, false],
];

const build = () => phonemeIndex(INVENTORIES, ROWS);

describe("createPhonemeIndexBuilder", () => {
  const index = build();

  it("keeps every row, grouped by inventory in id order, and one record per distinct segment", () => {
    expect(phonemeRowCount(index)).toBe(ROWS.length);
    expect(index.inventories.map((i) => i.inventory_id)).toEqual([1, 2, 3]);
    expect(Array.from(index.inventoryStart)).toEqual([0, 4, 7, 11]);
    expect(index.segments).toHaveLength(6);
  });

  it("counts inventories and distinct languages per segment, most widespread first", () => {
    // a and p are in all three inventories (three glottocodes); ties go by symbol.
    expect(index.segments.slice(0, 2).map((s) => [s.segment, s.inventories, s.languages])).toEqual([
      ["a", 3, 3],
      ["p", 3, 3],
    ]);
    const counts = index.segments.map((s) => s.inventories);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(index.segments.find((s) => s.segment === "k")).toMatchObject({
      inventories: 2,
      languages: 2,
      label: "voiceless velar stop",
    });
    expect(index.segments.find((s) => s.segment === "i")?.label).toBe("close front unrounded vowel");
  });

  it("indexes segments by type, manner and place, and inventories by ISO code and glottocode", () => {
    expect(
      index.byType
        .get("vowel")
        ?.map((s) => s.segment)
        .sort(),
    ).toEqual(["a", "i"]);
    expect(index.byManner.get("stop")?.map((s) => s.segment)).toEqual(["p", "k"]);
    expect(index.byPlace.get("velar")?.map((s) => s.segment)).toEqual(["k", "ŋ"]);
    expect(index.byIso.get("aaa")).toEqual([0, 1]);
    expect(index.byGlottocode.get("cccc1234")).toEqual([2]);
  });

  it("refuses a row naming an inventory it was not given", () => {
    const builder = createPhonemeIndexBuilder(INVENTORIES);
    expect(() => builder.add({ ...P, inventory_id: 99, marginal: false })).toThrow(/unknown inventory 99/);
  });
});

describe("phoneme queries", () => {
  const index = build();

  it("filters distinct segments by type, manner and place", () => {
    expect(filterSegments(index, {}).length).toBe(6);
    expect(filterSegments(index, { type: "tone" }).map((s) => s.segment)).toEqual(["˥"]);
    expect(filterSegments(index, { manner: "stop", place: "velar" }).map((s) => s.segment)).toEqual(["k"]);
    expect(filterSegments(index, { type: "vowel", manner: "stop" })).toEqual([]);
  });

  it("finds a language's inventories by ISO code or glottocode", () => {
    expect(inventoriesOf(index, { iso639_3: "aaa", glottocode: null })).toEqual([0, 1]);
    expect(inventoriesOf(index, { iso639_3: null, glottocode: "aaaa1235" })).toEqual([1]);
    expect(inventoriesOf(index, { iso639_3: "zzz", glottocode: "zzzz0000" })).toEqual([]);
  });

  it("merges a language's inventories: consonants first, counting inventories, marginal only if marginal everywhere", () => {
    const merged = languageSegments(index, [0, 1], {});
    expect(merged.map((m) => [m.segment.segment, m.inventories, m.marginal])).toEqual([
      ["p", 2, false],
      ["k", 2, false],
      ["a", 2, false],
      ["i", 1, false],
    ]);
    expect(languageSegments(index, [1], { manner: "stop" }).map((m) => [m.segment.segment, m.marginal])).toEqual([
      ["p", false],
      ["k", true],
    ]);
  });

  it("describes an inventory grouped into consonants, vowels and tones", () => {
    expect(describeInventory(index, 2)).toMatchObject({
      inventory_id: 3,
      consonants: ["p", "ŋ"],
      vowels: ["a"],
      tones: ["˥"],
      marginal: ["ŋ"],
    });
  });

  it("shapes a segment with its frequency across inventories", () => {
    expect(segmentRecord(index.segments[1]!, 3)).toMatchObject({
      segment: "p",
      inventories: 3,
      languages: 3,
      frequency: 1,
      description: "voiceless bilabial stop",
    });
  });
});
