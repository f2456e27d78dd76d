import { describe, expect, it } from "vitest";
import { fuzzyScore, lemmaForms, maxEdits, prefixScore, scoreKeywords, SCORES } from "./ranking.ts";

describe("lemmaForms", () => {
  it("gives the noun, verb and adjective lemmas other than the phrase itself", () => {
    expect(lemmaForms("dogs")).toContain("dog");
    expect(lemmaForms("running")).toContain("run");
    expect(lemmaForms("ice creams")).toContain("ice cream");
    expect(lemmaForms("dog")).toEqual([]);
    expect(lemmaForms("don't")).toEqual([]);
  });
});

describe("tier scores", () => {
  it("keeps every tier inside 0..1 and in the documented order", () => {
    expect(SCORES.exact).toBe(1);
    expect(SCORES.lemma).toBe(0.9);
    expect(prefixScore("ap", "apple")).toBeCloseTo(0.74, 3);
    expect(prefixScore("appl", "apple")).toBeCloseTo(0.78, 3);
    expect(fuzzyScore(1)).toBe(0.6);
    expect(fuzzyScore(2)).toBe(0.4);
    expect(SCORES.synonym).toBe(0.5);
    expect(maxEdits(4)).toBe(1);
    expect(maxEdits(5)).toBe(2);
  });
});

describe("scoreKeywords (upstream pictograms)", () => {
  it("finds the best tier among a pictogram's keywords", () => {
    expect(scoreKeywords("dog", ["puppy", "dog"])).toEqual({ keyword: "dog", score: 1 });
    expect(scoreKeywords("Dogs", ["dog"])).toEqual({ keyword: "dog", score: 0.9 });
    expect(scoreKeywords("run", ["running"])).toEqual({ keyword: "running", score: 0.9 });
    expect(scoreKeywords("appl", ["apple tree", "apple"])).toEqual({ keyword: "apple", score: 0.78 });
    expect(scoreKeywords("helo", ["hello"])).toEqual({ keyword: "hello", score: 0.6 });
    expect(scoreKeywords("dog", ["cat"])).toBeNull();
    expect(scoreKeywords("!!", ["dog"])).toBeNull();
  });
});
