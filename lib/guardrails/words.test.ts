import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from "obscenity";
import { describe, expect, it } from "vitest";
import { maskWords, patternProblem, wordsMatcher } from "./words.ts";

/** Matches as the check reports them: overlapping ones (one word, two of the dataset's patterns) once. */
const onePerPlace = (spans: (readonly [number, number])[]) =>
  [...spans]
    .sort((a, b) => a[0] - b[0] || b[1] - a[1])
    .filter((span, i, all) => i === 0 || span[0] >= all[i - 1]![1])
    .map(([start, end]) => [start, end]);

describe("the words check", () => {
  it("finds an operator's terms whole and case-blind, a phrase across any spacing, the longest first", () => {
    const match = wordsMatcher({ terms: ["Project Falcon", "falcon", "acme", "C++"] });
    const text = "Tell me about PROJECT   falcon, acme and Acmeish; falcons fly; C++ is a language.";
    const found = match(text);
    expect(found.map((f) => text.slice(f.start, f.end))).toEqual(["PROJECT   falcon", "acme", "C++"]);
    expect(maskWords(text, found)).toBe(
      "Tell me about [REDACTED], [REDACTED] and Acmeish; falcons fly; [REDACTED] is a language.",
    );
  });

  it("finds profanity from obscenity's list only when asked, once a place", () => {
    const text = "This is shit, frankly. Scunthorpe is a town.";
    expect(wordsMatcher({ terms: ["nothing"] })(text)).toEqual([]);
    const found = wordsMatcher({ profanity: true })(text);
    expect(found).toEqual([{ kind: "profanity", start: 8, end: 12 }]);
  });

  it("finds what obscenity's own matcher finds, leetspeak and its whitelist included", () => {
    // The check reads the text once for any pattern before asking the matcher where (words.ts): the two agree.
    const own = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
    const check = wordsMatcher({ profanity: true });
    const texts = [
      "sh1t happens",
      "what a b1tch",
      "$hit and a$$hole",
      "an assassin in class",
      "the cocktail at Scunthorpe",
      "fuuuuck this",
      "ＦＵＣＫ in full width",
      "nothing here but grass and peacocks",
      "Dick Smith's dictionary",
      "",
    ];
    for (const text of texts)
      expect(
        check(text).map((f) => [f.start, f.end]),
        text,
      ).toEqual(onePerPlace(own.getAllMatches(text, true).map((m) => [m.startIndex, m.endIndex + 1] as const)));
    expect(check("$hit and a$$hole").length).toBe(2);
  });

  it("finds an operator's patterns, case-blind, and masks them like terms", () => {
    const match = wordsMatcher({ patterns: ["order-\\d{6}", "project\\s+[a-z]+"] });
    const text = "Ship ORDER-123456 and order-12345 for Project   Falcon.";
    const found = match(text);
    expect(found.map((f) => [f.kind, text.slice(f.start, f.end)])).toEqual([
      ["pattern", "ORDER-123456"],
      ["pattern", "Project   Falcon"],
    ]);
    expect(maskWords(text, found)).toBe("Ship [REDACTED] and order-12345 for [REDACTED].");
  });

  it("refuses a pattern that could backtrack for seconds, match nothing or not compile", () => {
    expect(patternProblem("order-\\d{6}")).toBeUndefined();
    expect(patternProblem("(a+)+$")).toMatch(/nested repetition/);
    expect(patternProblem("(x|y)?")).toMatch(/empty text/);
    expect(patternProblem("[")).toMatch(/not a regular expression/);
  });

  it("treats a term's regular-expression characters as text", () => {
    const found = wordsMatcher({ terms: ["a.b", "(x)"] })("axb a.b (x) x");
    expect(found).toHaveLength(2);
  });
});
