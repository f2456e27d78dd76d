import { describe, expect, it } from "vitest";
import { buildIndex, textBetween, wordId } from "./inverted-index.ts";
import { expandPattern, findMatches, parseQuery } from "./query.ts";
import { corpusDocument as doc } from "./test-fixtures.ts";

const index = buildIndex([
  doc("one", "Love is patient. The lover loved the lovely glove; the love of the game."),
  doc("two", "The kindness of the state. Darkness fell on the end of the"),
  doc("three", "state of the union. I love ice cream and ice-cream."),
]);
const words = (ids: number[]) => ids.map((id) => index.vocabulary[id]).sort();
const spans = (q: string, limit?: number) => {
  const m = findMatches(index, parseQuery(q), limit);
  return { total: m.total, spans: [...m.starts].map((s) => textBetween(index, s, s + m.span - 1)) };
};

describe("parseQuery", () => {
  it("reads words, wildcard patterns and lone stars, folding case", () => {
    expect(parseQuery("The * OF lov*")).toEqual([
      { kind: "word", word: "the" },
      { kind: "any" },
      { kind: "word", word: "of" },
      { kind: "pattern", pattern: "lov*" },
    ]);
    expect(parseQuery("ice-cream")).toEqual([
      { kind: "word", word: "ice" },
      { kind: "word", word: "cream" },
    ]);
    expect(parseQuery("**ness")).toEqual([{ kind: "pattern", pattern: "*ness" }]);
  });

  it("rejects queries with nothing to anchor on, odd wildcard terms and very long phrases", () => {
    expect(() => parseQuery("* *")).toThrow(/at least one word/);
    expect(() => parseQuery("1961 !!")).toThrow(/at least one word/);
    expect(() => parseQuery("lo?e*")).toThrow(/only letters/);
    expect(() => parseQuery("a b c d e f g h i j k")).toThrow(/at most 10/);
  });
});

describe("expandPattern", () => {
  it("expands a prefix, a suffix and an infix over the vocabulary", () => {
    expect(words(expandPattern(index, "lov*"))).toEqual(["love", "loved", "lovely", "lover"]);
    expect(words(expandPattern(index, "*ness"))).toEqual(["darkness", "kindness"]);
    expect(words(expandPattern(index, "*ov*"))).toEqual(["glove", "love", "loved", "lovely", "lover"]);
    expect(expandPattern(index, "zz*")).toEqual([]);
  });

  it("counts every word a pattern matches, however many (totals were once those of the 500 most frequent only)", () => {
    // 700 distinct words starting with "w", each once, then 300 of them again.
    const name = (i: number) =>
      "w" + [...i.toString(26).padStart(2, "0")].map((d) => String.fromCharCode(97 + parseInt(d, 26))).join("");
    const many = buildIndex([
      doc(
        "many",
        Array.from({ length: 700 }, (_, i) => name(i)).join(" ") +
          " and " +
          Array.from({ length: 300 }, (_, i) => name(i)).join(" "),
      ),
    ]);
    expect(expandPattern(many, "w*")).toHaveLength(700);
    const single = findMatches(many, parseQuery("w*"), 3);
    expect(single.total).toBe(1000);
    expect([...single.starts]).toEqual([0, 1, 2]);
    const phrase = findMatches(many, parseQuery("w* w*"));
    expect(phrase.total).toBe(699 + 299);
    expect(phrase.starts[699]).toBe(701);
  });
});

describe("findMatches", () => {
  it("finds one word case-insensitively, counting all while returning the first `limit` in order", () => {
    expect(spans("the")).toEqual({ total: 9, spans: ["The", "the", "the", "the", "The", "the", "the", "the", "the"] });
    expect(spans("THE", 2)).toEqual({ total: 9, spans: ["The", "the"] });
  });

  it("merges the postings of a wildcard's words into corpus order", () => {
    expect(spans("lov*")).toEqual({ total: 6, spans: ["Love", "lover", "loved", "lovely", "love", "love"] });
    expect(spans("lov*", 2)).toEqual({ total: 6, spans: ["Love", "lover"] });
  });

  it("finds phrases, with * standing for any one word and wildcards inside", () => {
    expect(spans("of the")).toEqual({ total: 4, spans: ["of the", "of the", "of the", "of the"] });
    expect(spans("the * of")).toEqual({ total: 3, spans: ["the love of", "The kindness of", "the end of"] });
    expect(spans("ice cream")).toEqual({ total: 2, spans: ["ice cream", "ice-cream"] });
    expect(spans("the lov*")).toEqual({ total: 3, spans: ["The lover", "the lovely", "the love"] });
    expect(spans("of the", 1)).toEqual({ total: 4, spans: ["of the"] });
  });

  it("never matches a phrase across the edge of a document", () => {
    // Document two ends "of the", document three starts "state of the": "the state" spans the edge.
    expect(spans("the state")).toEqual({ total: 1, spans: ["the state"] });
    expect(spans("end of the state").total).toBe(0);
    expect(spans("of the state").total).toBe(1);
  });

  it("finds nothing, not an error, for a word the corpus lacks", () => {
    expect(spans("zebra")).toEqual({ total: 0, spans: [] });
    expect(spans("the zebra")).toEqual({ total: 0, spans: [] });
    expect(wordId(index, "zebra")).toBe(-1);
  });
});
