import { describe, expect, it } from "vitest";
import { GatewayError } from "../../errors.ts";
import type { AacSymbol } from "./search.ts";
import { buildSymbolIndex, symbolIndex } from "./search.ts";
import { buildSentence, parseSources, phraseMatcher, segmentSentence } from "./sentence.ts";
import type { LocalSymbolRecord } from "./symbols.ts";

const record = (id: number, keywords: string[], synonyms: string[] = []): LocalSymbolRecord => ({
  id,
  source: "mulberry",
  name: keywords[0]!,
  keywords,
  synonyms,
  path: `/aac/mulberry/${id}.svg`,
  author: "Steve Lee",
  category: "test",
});

const index = buildSymbolIndex([
  record(1, ["thank you"]),
  record(2, ["ice cream"]),
  record(3, ["want"]),
  record(4, ["good morning"]),
  record(5, ["good"]),
  record(6, ["dog"], ["pet"]),
  record(7, ["apple"]),
  record(8, ["face with tears of joy"]),
]);

const remote = (id: number, keyword: string, score: number): AacSymbol => ({
  id,
  word: keyword,
  keyword,
  keywords: [keyword],
  icon_url: `https://static.arasaac.org/pictograms/${id}/${id}_300.png`,
  url: `https://static.arasaac.org/pictograms/${id}/${id}_300.png`,
  source: "arasaac",
  license: "CC BY-NC-SA 4.0",
  score,
  author: "Sergio Palao",
  attribution: "ARASAAC",
});

describe("segmentSentence", () => {
  const isPhrase = phraseMatcher(index);

  it("joins the longest known phrase at each position, greedily", () => {
    expect(segmentSentence(["thank", "you", "i", "want", "ice", "cream"], isPhrase, index.longestPhrase)).toEqual([
      "thank you",
      "i",
      "want",
      "ice cream",
    ]);
    expect(segmentSentence(["good", "morning", "good", "dog"], isPhrase, index.longestPhrase)).toEqual([
      "good morning",
      "good",
      "dog",
    ]);
    expect(segmentSentence(["face", "with", "tears", "of", "joy"], isPhrase, index.longestPhrase)).toEqual([
      "face with tears of joy",
    ]);
  });

  it("recognises a phrase by its lemma and leaves unknown runs as single words", () => {
    expect(segmentSentence(["two", "ice", "creams"], isPhrase, index.longestPhrase)).toEqual(["two", "ice creams"]);
    expect(segmentSentence(["thank"], isPhrase, index.longestPhrase)).toEqual(["thank"]);
    expect(segmentSentence([], isPhrase, index.longestPhrase)).toEqual([]);
  });
});

describe("parseSources", () => {
  it("reads comma lists and arrays, maps pictolib to arasaac, and rejects unknown names", () => {
    expect(parseSources(undefined, "local")).toEqual(["local"]);
    expect(parseSources("", "arasaac")).toEqual(["arasaac"]);
    expect(parseSources("pictolib, local", "local")).toEqual(["local", "arasaac"]);
    expect(parseSources(["arasaac", "ARASAAC"], "local")).toEqual(["arasaac"]);
    expect(() => parseSources("local,myspace", "local")).toThrow(GatewayError);
  });
});

describe("buildSentence", () => {
  it("gives each word its symbols and counts coverage in percent", async () => {
    const result = await buildSentence("Thank you! I want a dog.", ["local"], "en", { index, arasaac: async () => [] });
    expect(result.words.map((w) => [w.word, w.matched])).toEqual([
      ["thank you", true],
      ["i", false],
      ["want", true],
      ["a", false],
      ["dog", true],
    ]);
    expect(result.words[0]!.symbols[0]).toMatchObject({ id: 1, keyword: "thank you", score: 1 });
    expect(result.statistics).toEqual({ total_words: 5, matched: 3, unmatched: 2, coverage: 60 });
  });

  it("matches whole words only: no prefix or fuzzy symbols on a board", async () => {
    const result = await buildSentence("appl pets", ["local"], "en", { index, arasaac: async () => [] });
    expect(result.words).toEqual([
      { word: "appl", matched: false, symbols: [] },
      { word: "pets", matched: true, symbols: [expect.objectContaining({ id: 6, keyword: "pet", score: 0.5 })] },
    ]);
  });

  it("looks each distinct word up once upstream, keeps only whole-word ARASAAC matches, local first on ties", async () => {
    const asked: string[] = [];
    const arasaac = async (word: string) => {
      asked.push(word);
      return word === "dog" ? [remote(11, "dog", 1), remote(12, "doghouse", 0.7)] : [];
    };
    const result = await buildSentence("dog dog", ["local", "arasaac"], "en", { index, arasaac });
    expect(asked).toEqual(["dog"]);
    expect(result.words[0]!.symbols.map((s) => [s.source, s.id])).toEqual([
      ["mulberry", 6],
      ["arasaac", 11],
    ]);
  });

  it("shows a phrase no source has a symbol for word by word", async () => {
    const arasaac = async (word: string) => (word === "ice" ? [remote(20, "ice", 1)] : []);
    const result = await buildSentence("ice cream", ["arasaac"], "en", { index, arasaac });
    expect(result.words.map((w) => [w.word, w.matched])).toEqual([
      ["ice", true],
      ["cream", false],
    ]);
  });

  it("refuses a sentence without words or with too many", async () => {
    await expect(buildSentence("?!", ["local"], "en", { index, arasaac: async () => [] })).rejects.toThrow(/no words/);
    await expect(buildSentence("a ".repeat(61), ["local"], "en", { index, arasaac: async () => [] })).rejects.toThrow(
      /at most 60/,
    );
  });
});

describe("buildSentence over the shipped symbols", () => {
  const shipped = { index: symbolIndex(), arasaac: async () => [] };
  const best = async (sentence: string) =>
    Object.fromEntries(
      (await buildSentence(sentence, ["local"], "en", shipped)).words.map((w) => [w.word, w.symbols[0]?.icon_url]),
    );

  it("gives every core word a symbol that shows it", async () => {
    expect(await best("I you to the a an yes no please me")).toEqual({
      i: "/aac/core/i.svg",
      you: "/aac/openmoji/1FAF5.svg",
      to: "/aac/openmoji/27A1.svg",
      the: "/aac/core/the.svg",
      a: "/aac/core/a.svg",
      an: "/aac/core/a.svg",
      yes: "/aac/openmoji/1F44D.svg",
      no: "/aac/mulberry/mistake_no_wrong.svg",
      please: "/aac/openmoji/1F64F.svg",
      me: "/aac/core/i.svg",
    });
  });

  it("never matches a function word through an emoji's related words", async () => {
    const result = await buildSentence("you and an apple for me", ["local"], "en", shipped);
    // Before: "an" found ❣ (heart exclamation), "you" a face blowing a kiss, "for" a record button.
    const symbolsOf = (word: string) => result.words.find((w) => w.word === word)!.symbols.map((s) => s.word);
    expect(symbolsOf("an")).toEqual(["a"]);
    expect(symbolsOf("you")).toEqual(["index pointing at the viewer"]);
    expect(symbolsOf("for")).toEqual([]);
    expect(symbolsOf("and")).toEqual([]);
  });

  it("credits the drawn core symbols as public domain", async () => {
    const [word] = (await buildSentence("I", ["local"], "en", shipped)).words;
    expect(word!.symbols[0]).toMatchObject({ source: "core", license: "CC0 1.0", word: "I" });
  });
});
