import { describe, expect, it } from "vitest";
import {
  buildIndex,
  deserialiseIndex,
  documentAt,
  positionsOf,
  serialiseIndex,
  textBetween,
  wordFrequency,
  wordId,
} from "./inverted-index.ts";
import { searchCorpus } from "./search.ts";
import { corpusDocument } from "./test-fixtures.ts";

const doc = (id: string, text: string, year = 1961, register = "press") =>
  corpusDocument(id, text, { title: `Title ${id}`, year, register, genre: register });
const docs = [
  doc("a", "The cat sat. The CAT ran!", 1961),
  doc("b", "Hwæt! Wē Gār-Dena þrym — the cat’s end.", 1000, "verse"),
  doc("c", "the end", 1999),
];

describe("buildIndex", () => {
  const index = buildIndex(docs);

  it("numbers the folded words in sorted order and lists each word's positions", () => {
    expect(index.vocabulary).toEqual([...index.vocabulary].sort());
    expect(index.tokens.length).toBe(6 + 8 + 2);
    expect(wordFrequency(index, wordId(index, "the"))).toBe(4);
    expect([...positionsOf(index, wordId(index, "cat"))]).toEqual([1, 4]);
    expect(wordId(index, "dog")).toBe(-1);
  });

  it("keeps each document's token range and metadata, decade included", () => {
    expect([...index.docStarts]).toEqual([0, 6, 14, 16]);
    expect(index.docs.map((d) => [d.id, d.decade, d.tokens])).toEqual([
      ["a", 1960, 6],
      ["b", 1000, 8],
      ["c", 1990, 2],
    ]);
    expect([0, 5, 6, 13, 14, 15].map((p) => documentAt(index, p))).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it("cuts the original text of any token span, non-ASCII text included", () => {
    expect(textBetween(index, 3, 4)).toBe("The CAT");
    expect(textBetween(index, 6, 8)).toBe("Hwæt! Wē Gār");
    expect(textBetween(index, 11, 13)).toBe("the cat’s end");
  });
});

describe("the index file", () => {
  it("loads back to an index that answers every search identically", () => {
    const built = buildIndex(docs);
    const loaded = deserialiseIndex(serialiseIndex(built));
    expect(loaded.vocabulary).toEqual(built.vocabulary);
    expect(loaded.docs).toEqual(built.docs);
    for (const key of ["tokens", "starts", "lengths", "postingStarts", "postings", "docStarts"] as const)
      expect([...loaded[key]]).toEqual([...built[key]]);
    for (const q of ["the", "cat*", "the cat", "þrym", "the * end"]) {
      expect(searchCorpus(loaded, q, { context: 3, limit: 10 })).toEqual(
        searchCorpus(built, q, { context: 3, limit: 10 }),
      );
    }
  });

  it("loads from a buffer that does not start on a 4-byte boundary", () => {
    const bytes = serialiseIndex(buildIndex(docs));
    const shifted = new Uint8Array(bytes.length + 1).subarray(1);
    shifted.set(bytes);
    expect(deserialiseIndex(shifted).vocabulary).toEqual(buildIndex(docs).vocabulary);
  });

  it("refuses a file that is not an index or is cut short", () => {
    expect(() => deserialiseIndex(new TextEncoder().encode("hello world, not an index"))).toThrow(/not a corpus index/);
    const bytes = serialiseIndex(buildIndex(docs));
    expect(() => deserialiseIndex(bytes.subarray(0, bytes.length / 2))).toThrow();
  });
});
