import { describe, expect, it } from "vitest";
import { extractKeywords } from "./keywords.ts";

const TEXT = `Compatibility of systems of linear constraints over the set of natural numbers.
Criteria of compatibility of a system of linear Diophantine equations, strict inequations, and
nonstrict inequations are considered. Upper bounds for components of a minimal set of solutions
and algorithms of construction of minimal generating sets of solutions for all types of systems
are given.`;

describe("extractKeywords", () => {
  it("finds the multi-word terms of the classic RAKE example, best first", () => {
    const keywords = extractKeywords(TEXT, 10).map((k) => k.keyword);
    expect(keywords.slice(0, 3)).toEqual(
      expect.arrayContaining(["linear diophantine equations", "minimal generating sets"]),
    );
    expect(keywords).toContain("linear constraints");
    expect(keywords).not.toContain("of");
  });

  it("scores in 0..1 with the best at 1, and counts occurrences across inflections", () => {
    const result = extractKeywords("Search engines are fast. The search engine is big, and web pages are many.", 5);
    expect(result[0]!.score).toBe(1);
    expect(result.every((k) => k.score > 0 && k.score <= 1)).toBe(true);
    const engine = result.find((k) => k.keyword === "search engines" || k.keyword === "search engine");
    expect(engine?.count).toBe(2);
  });

  it("honours top_k and copes with empty or stop-word-only text", () => {
    expect(extractKeywords(TEXT, 2)).toHaveLength(2);
    expect(extractKeywords("", 5)).toEqual([]);
    expect(extractKeywords("the and of it is", 5)).toEqual([]);
  });
});
