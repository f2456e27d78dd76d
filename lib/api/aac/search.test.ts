import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildSymbolIndex,
  rankSymbols,
  resultsJson,
  searchSymbols,
  searchSymbolsJson,
  symbolIndex,
  toResult,
} from "./search.ts";
import type { LocalSymbolRecord } from "./symbols.ts";

const symbol = (
  id: number,
  source: LocalSymbolRecord["source"],
  keywords: string[],
  synonyms: string[] = [],
): LocalSymbolRecord => ({
  id,
  source,
  name: keywords[0]!,
  keywords,
  synonyms,
  path: `/aac/${source}/${id}.svg`,
  author: "A. Author",
  category: "test",
});

const index = buildSymbolIndex([
  symbol(100005, "openmoji", ["dog"], ["pet", "puppy"]),
  symbol(7, "mulberry", ["dog"], ["animal", "pet"]),
  symbol(8, "mulberry", ["run"]),
  symbol(9, "mulberry", ["apple"], ["fruit"]),
  symbol(10, "mulberry", ["apple juice"], ["juice"]),
  symbol(11, "mulberry", ["hello"]),
  symbol(12, "mulberry", ["ice cream"], ["dessert"]),
  symbol(13, "mulberry", ["happy lady", "happy"], ["feeling"]),
  symbol(100001, "openmoji", ["grinning face"], ["happy", "smile"]),
  symbol(14, "mulberry", ["elephant"]),
]);

const rank = (q: string, options = {}) =>
  rankSymbols(index, q, options).hits.map((h) => ({
    id: index.symbols[h.symbol]!.id,
    keyword: h.keyword,
    score: h.score,
  }));

describe("rankSymbols: the documented tiers", () => {
  it("scores an exact keyword 1.0, Mulberry before OpenMoji on a tie, then related symbols by synonym", () => {
    expect(rank("dog")).toEqual([
      { id: 7, keyword: "dog", score: 1 },
      { id: 100005, keyword: "dog", score: 1 },
    ]);
    expect(rank("Dog!")).toEqual(rank("dog"));
  });

  it("scores a lemma or derived form 0.9 (dogs → dog, running → run, ice creams → ice cream)", () => {
    expect(rank("dogs")).toEqual([
      { id: 7, keyword: "dog", score: 0.9 },
      { id: 100005, keyword: "dog", score: 0.9 },
    ]);
    expect(rank("running")).toEqual([{ id: 8, keyword: "run", score: 0.9 }]);
    expect(rank("ice creams")).toEqual([{ id: 12, keyword: "ice cream", score: 0.9 }]);
  });

  it("scores a prefix between 0.7 and 0.8 by how much of the keyword it covers", () => {
    const hits = rank("appl");
    expect(hits.map((h) => h.id)).toEqual([9, 10]);
    expect(hits[0]!.score).toBeCloseTo(0.7 + 0.1 * (4 / 5), 3);
    expect(hits[1]!.score).toBeCloseTo(0.7 + 0.1 * (4 / 11), 3);
    expect(hits[0]!.score).toBeLessThan(0.8);
    expect(rank("a")).toEqual([]);
  });

  it("scores one edit 0.6 and two edits 0.4, only when nothing else matched", () => {
    expect(rank("helo")).toEqual([{ id: 11, keyword: "hello", score: 0.6 }]);
    expect(rank("elephnat")).toEqual([{ id: 14, keyword: "elephant", score: 0.4 }]);
    expect(rank("hel")).toEqual([{ id: 11, keyword: "hello", score: expect.closeTo(0.76, 2) }]);
    expect(rank("zzzzzzz")).toEqual([]);
  });

  it("scores a synonym 0.5 and ranks it below exact matches", () => {
    expect(rank("happy")).toEqual([
      { id: 13, keyword: "happy", score: 1 },
      { id: 100001, keyword: "happy", score: 0.5 },
    ]);
    expect(rank("pet")).toEqual([
      { id: 7, keyword: "pet", score: 0.5 },
      { id: 100005, keyword: "pet", score: 0.5 },
    ]);
    expect(rank("puppies")).toEqual([{ id: 100005, keyword: "puppy", score: 0.5 }]);
  });

  it("keeps each symbol once, at its best score", () => {
    const hits = rank("apple");
    expect(hits).toEqual([
      { id: 9, keyword: "apple", score: 1 },
      { id: 10, keyword: "apple juice", score: expect.closeTo(0.745, 3) },
    ]);
  });

  it("restricts to word tiers for sentences and to chosen sets", () => {
    expect(rank("appl", { tiers: "word" })).toEqual([]);
    expect(rank("helo", { tiers: "word" })).toEqual([]);
    expect(rank("dog", { sets: ["openmoji"] }).map((h) => h.id)).toEqual([100005]);
  });

  it("returns the best `limit` hits but counts them all", () => {
    const { hits, total } = rankSymbols(index, "happy", { limit: 1 });
    expect(total).toBe(2);
    expect(hits).toHaveLength(1);
    expect(index.symbols[hits[0]!.symbol]!.id).toBe(13);
  });

  it("knows the multi-word keywords a sentence can match as one symbol", () => {
    expect(index.phrases).toEqual(new Set(["apple juice", "ice cream", "happy lady", "grinning face"]));
    expect(index.longestPhrase).toBe(2);
  });
});

describe("the shipped local symbol set", () => {
  const shipped = symbolIndex();

  it("serves every symbol's icon from public/", () => {
    expect(shipped.symbols.length).toBeGreaterThan(2000);
    const missing = shipped.bases.filter(
      (b) => !b.icon_url.startsWith("/aac/") || !existsSync(path.join(process.cwd(), "public", b.icon_url)),
    );
    expect(missing).toEqual([]);
  });

  it("gives every symbol keywords, a source, a licence and an attribution", () => {
    for (const b of shipped.bases) {
      expect(b.keywords.length, b.word).toBeGreaterThan(0);
      expect(["mulberry", "openmoji", "core"]).toContain(b.source);
      expect(b.license).toBe(b.source === "core" ? "CC0 1.0" : "CC BY-SA 4.0");
      expect(b.attribution).toMatch(
        { mulberry: /^Mulberry Symbols © 2018–2026 Steve Lee/, openmoji: /OpenMoji/, core: /CC0 1\.0/ }[b.source]!,
      );
      expect(Number.isInteger(b.id)).toBe(true);
    }
    expect(new Set(shipped.bases.map((b) => b.id)).size).toBe(shipped.bases.length);
  });

  it("keeps the OpenMoji subset under 10 MB", () => {
    const bytes = shipped.bases
      .filter((b) => b.source === "openmoji")
      .reduce((sum, b) => sum + statSync(path.join(process.cwd(), "public", b.icon_url)).size, 0);
    expect(bytes).toBeLessThan(10 * 1024 * 1024);
  });

  it("finds everyday words and phrases", () => {
    const top = (q: string) => searchSymbols(q, { limit: 1 }).results[0];
    expect(top("dogs")).toMatchObject({
      word: "dog",
      source: "mulberry",
      score: 0.9,
      icon_url: "/aac/mulberry/dog.svg",
      url: "/aac/mulberry/dog.svg",
    });
    expect(top("thank you")).toMatchObject({
      source: "openmoji",
      keyword: "thank you",
      score: 1,
      icon_url: "/aac/openmoji/1F64F.svg",
    });
    expect(top("pizza")).toMatchObject({ keyword: "pizza", score: 1 });
  });

  it("searches 10,000 times in under two seconds even in a busy test run", () => {
    const queries = ["dog", "dogs", "running", "appl", "helo", "happy", "thank you", "face", "ice cream", "xyzzy"];
    searchSymbols("warm up");
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) searchSymbols(queries[i % queries.length]!);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("resultsJson", () => {
  it("serialises a page exactly as JSON.stringify of the result objects would", () => {
    const { hits } = rankSymbols(index, "apple");
    expect(JSON.parse(resultsJson(index, hits))).toEqual(hits.map((h) => toResult(index, h)));
    expect(resultsJson(index, [])).toBe("[]");
    const shipped = searchSymbolsJson("happy", { limit: 20 });
    expect(JSON.parse(shipped.json)).toEqual(searchSymbols("happy", { limit: 20 }).results);
    expect(shipped.total).toBe(searchSymbols("happy").total);
  });
});
