import { describe, expect, it } from "vitest";
import { buildIndex } from "./inverted-index.ts";
import { buildKwicLines } from "./kwic.ts";
import { findMatches, parseQuery } from "./query.ts";
import { corpusDocument } from "./test-fixtures.ts";

const doc = (id: string, year: number, text: string) => corpusDocument(id, text, { title: `The ${id}`, year });
const index = buildIndex([
  doc("first", 1600, "Alpha beta, gamma delta.\nEpsilon zeta"),
  doc("second", 1700, "eta   theta iota kappa"),
]);
const lines = (q: string, context: number) => buildKwicLines(index, findMatches(index, parseQuery(q)), context);

describe("buildKwicLines", () => {
  it("shows the match as written, with punctuation kept and whitespace flattened in the context", () => {
    expect(lines("gamma", 2)).toEqual([
      {
        left: "Alpha beta,",
        word: "gamma",
        right: "delta. Epsilon",
        source: "The first",
        document: "first",
        year: 1600,
      },
    ]);
  });

  it("stops the context at the start and end of the match's document", () => {
    expect(lines("alpha", 3)[0]).toMatchObject({ left: "", word: "Alpha", right: "beta, gamma delta" });
    expect(lines("zeta", 3)[0]).toMatchObject({ left: "gamma delta. Epsilon", word: "zeta", right: "" });
    expect(lines("eta", 50)[0]).toMatchObject({
      left: "",
      word: "eta",
      right: "theta iota kappa",
      source: "The second",
      year: 1700,
    });
    expect(lines("kappa", 50)[0]).toMatchObject({ left: "eta theta iota", right: "" });
  });

  it("gives a phrase's whole span as the word, and no context for context 0", () => {
    expect(lines("delta epsilon", 0)).toEqual([
      { left: "", word: "delta. Epsilon", right: "", source: "The first", document: "first", year: 1600 },
    ]);
  });
});
