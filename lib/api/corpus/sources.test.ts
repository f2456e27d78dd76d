import { describe, expect, it } from "vitest";
import { BROWN_CATEGORIES, BROWN_YEAR, brownTitles, detagBrown, SOTU_REGISTER, SOURCES } from "./sources.ts";

describe("Brown corpus", () => {
  it("strips tags and rebuilds running text with its punctuation and quotes", () => {
    const tagged =
      "\n\n\tThe/at jury/nn said/vbd ``/`` no/at evidence/nn ''/'' ,/, (/( 1/2/cd )/) ./.\n\n\tIt's/pps+bez over/rp ./.\n";
    expect(detagBrown(tagged)).toBe('The jury said "no evidence", (1/2).\nIt\'s over.');
  });

  it("reads each sample's title from the first line of its CONTENTS entry", () => {
    const titles = brownTitles(
      "A01. The Atlanta Constitution\n\tUsed by permission\nR02. Jean Mercier, Whatever You Do, Don't Panic.\n\tNew York: Doubleday &amp; Company\n",
    );
    expect(Object.fromEntries(titles)).toEqual({
      a01: "The Atlanta Constitution",
      r02: "Jean Mercier, Whatever You Do, Don't Panic",
    });
  });

  it("maps all 15 categories to a register", () => {
    expect(Object.keys(BROWN_CATEGORIES)).toHaveLength(15);
    expect(BROWN_CATEGORIES.a!.register).toBe("press");
    expect(BROWN_CATEGORIES.j!.register).toBe("academic");
    expect(BROWN_CATEGORIES.p!.register).toBe("fiction");
    expect(BROWN_CATEGORIES.d!.register).toBe("religion");
  });
});

describe("corpus sources", () => {
  it("coca is the 500 Brown samples (1961) and every State of the Union address, each with year and register", () => {
    const docs = SOURCES.coca.readDocuments();
    const brown = docs.filter((d) => d.id.startsWith("brown-"));
    const sotu = docs.filter((d) => d.id.startsWith("sotu-"));
    expect(brown).toHaveLength(500);
    expect(new Set(brown.map((d) => d.year))).toEqual(new Set([BROWN_YEAR]));
    expect(new Set(brown.map((d) => d.register))).toEqual(
      new Set(Object.values(BROWN_CATEGORIES).map((c) => c.register)),
    );
    expect(brown[0]).toMatchObject({
      id: "brown-a01",
      title: "Brown A01: The Atlanta Constitution",
      genre: "press: reportage",
    });
    expect(brown[0]!.text.startsWith("The Fulton County Grand Jury said Friday")).toBe(true);
    expect(sotu.length).toBe(docs.length - 500);
    expect(sotu[0]).toMatchObject({
      id: "sotu-1790_george_washington_n",
      year: 1790,
      author: "George Washington",
      register: SOTU_REGISTER,
    });
    expect(Math.max(...sotu.map((d) => d.year))).toBe(2021);
    expect(SOURCES.coca.inputFiles()).toHaveLength(1 + 500 + sotu.length);
  });

  it("each historical period reads its documents from the shipped data", () => {
    const counts = Object.fromEntries(
      (["old_english", "middle_english", "early_modern"] as const).map((name) => [
        name,
        SOURCES[name].readDocuments().length,
      ]),
    );
    expect(counts).toEqual({ old_english: 73, middle_english: 26, early_modern: 45 });
    const [first] = SOURCES.old_english.readDocuments();
    expect(first).toMatchObject({ id: "oe-a-prayer", year: 1000, register: "verse", genre: "poetry" });
  });
});
