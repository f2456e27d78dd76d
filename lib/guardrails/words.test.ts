import { describe, expect, it } from "vitest";
import { maskWords, wordsMatcher } from "./words.ts";

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

  it("treats a term's regular-expression characters as text", () => {
    const found = wordsMatcher({ terms: ["a.b", "(x)"] })("axb a.b (x) x");
    expect(found).toHaveLength(2);
  });
});
