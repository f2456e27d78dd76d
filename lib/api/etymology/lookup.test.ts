import { describe, expect, it } from "vitest";
import { findHeadword, normaliseWord } from "./lookup.ts";

const headwords = new Set(["run", "house", "happy", "go", "child", "running", "water"]);
const has = (w: string) => headwords.has(w);

describe("findHeadword", () => {
  it("normalises case, spacing and Unicode form", () => {
    expect(normaliseWord("  WaTer \n")).toBe("water");
    expect(normaliseWord("cafe\u0301")).toBe("café");
    expect(findHeadword("  WATER ", has)).toEqual({ word: "water", matched: "exact" });
  });

  it("prefers the exact headword over its lemma", () => {
    expect(findHeadword("running", has)).toEqual({ word: "running", matched: "exact" });
  });

  it("falls back to the lemma for inflected forms", () => {
    expect(findHeadword("runs", has)).toEqual({ word: "run", matched: "lemma" });
    expect(findHeadword("ran", has)).toEqual({ word: "run", matched: "lemma" });
    expect(findHeadword("Houses", has)).toEqual({ word: "house", matched: "lemma" });
    expect(findHeadword("happier", has)).toEqual({ word: "happy", matched: "lemma" });
    expect(findHeadword("went", has)).toEqual({ word: "go", matched: "lemma" });
    expect(findHeadword("children", has)).toEqual({ word: "child", matched: "lemma" });
    expect(findHeadword("house's", has)).toEqual({ word: "house", matched: "lemma" });
  });

  it("returns null when neither the word nor a lemma is a headword", () => {
    expect(findHeadword("qwertyuiop", has)).toBeNull();
    expect(findHeadword("   ", has)).toBeNull();
  });
});
