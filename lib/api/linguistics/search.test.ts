import { describe, expect, it } from "vitest";
import { buildLanguageIndex } from "./glottolog.ts";
import { searchFeatures, searchLanguages, searchPhonemes } from "./search.ts";
import { consonant, inventory, language, phonemeIndex } from "./test-fixtures.ts";
import { buildWalsIndex, type WalsParameterRecord } from "./wals.ts";

const LANGUAGES = buildLanguageIndex([
  language({ name: "Old English (ca. 450-1100)", iso639_3: "ang", glottocode: "olde1238" }),
  language({ name: "English", iso639_3: "eng", glottocode: "stan1293" }),
  language({ name: "Englishes Creole", glottocode: "engl9999" }),
  language({ name: "Englisch Pidgin", iso639_3: "epd", glottocode: "engl1234" }),
  language({ name: "Volapük", iso639_3: "vol", glottocode: "vola1234" }),
  language({ name: "Engenni", iso639_3: "enn", glottocode: "enge1239" }),
]);

describe("searchLanguages", () => {
  it("ranks exact, then prefix, then substring, with ISO-coded and shorter names first within a tier", () => {
    const found = searchLanguages(LANGUAGES, "English", 10);
    expect(found.items.map((r) => [r.item.name, r.match])).toEqual([
      ["English", "exact"],
      ["Englishes Creole", "prefix"],
      ["Old English (ca. 450-1100)", "substring"],
    ]);
    expect(found.total).toBe(3);
  });

  it("matches exact ISO codes and glottocodes, folds diacritics and case, and honours the limit", () => {
    expect(searchLanguages(LANGUAGES, "ENN", 5).items[0]).toMatchObject({ item: { name: "Engenni" }, match: "exact" });
    expect(searchLanguages(LANGUAGES, "stan1293", 5).items.map((r) => r.item.name)).toEqual(["English"]);
    expect(searchLanguages(LANGUAGES, "volapuk", 5).items[0]).toMatchObject({
      item: { name: "Volapük" },
      match: "exact",
    });
    const limited = searchLanguages(LANGUAGES, "eng", 2);
    expect(limited.items).toHaveLength(2);
    expect(limited.total).toBe(5);
    expect(searchLanguages(LANGUAGES, "xyzzy", 5)).toEqual({ total: 0, items: [] });
  });
});

describe("searchPhonemes", () => {
  const index = phonemeIndex(
    [1, 2].map((id) => inventory(id, `l${id}x`, null, { language_name: "x", source: "t" })),
    [
      [1, consonant("n", "nasal", "alveolar", true), false],
      [1, consonant("ŋ", "nasal", "velar", true), false],
      [2, consonant("ŋ", "nasal", "velar", true), false],
      [2, consonant("ŋʷ", "nasal", "labial-velar", true), false],
      [1, consonant("k", "stop", "velar", false), false],
    ],
  );

  it("matches IPA symbols exactly, then as a prefix", () => {
    expect(searchPhonemes(index, "ŋ", 5).items.map((r) => [r.item.segment, r.match])).toEqual([
      ["ŋ", "exact"],
      ["ŋʷ", "prefix"],
    ]);
  });

  it("matches descriptions for longer queries, at word boundaries before plain substrings", () => {
    const found = searchPhonemes(index, "velar nasal", 5).items.map((r) => [r.item.segment, r.match]);
    expect(found).toEqual([
      ["ŋ", "prefix"],
      ["ŋʷ", "substring"],
    ]);
    expect(searchPhonemes(index, "Nasal", 5).items.map((r) => r.item.segment)).toEqual(["ŋ", "n", "ŋʷ"]);
  });
});

describe("searchFeatures", () => {
  const parameter = (id: string, chapter: number, name: string): WalsParameterRecord => ({
    id,
    name,
    chapter,
    chapter_title: name,
    authors: "",
    area: "Word Order",
    url: "",
    datapoints: 0,
    values: [],
  });
  const index = buildWalsIndex(
    [
      parameter("81A", 81, "Order of Subject, Object and Verb"),
      parameter("83A", 83, "Order of Object and Verb"),
      parameter("1A", 1, "Consonant Inventories"),
    ],
    [],
    [],
  );

  it("matches ids exactly and names by prefix or substring, in WALS order within a tier", () => {
    expect(searchFeatures(index, "81a", 5).items.map((r) => [r.item.id, r.match])).toEqual([["81A", "exact"]]);
    expect(searchFeatures(index, "order of", 5).items.map((r) => [r.item.id, r.match])).toEqual([
      ["81A", "prefix"],
      ["83A", "prefix"],
    ]);
    expect(searchFeatures(index, "verb", 5).items.map((r) => r.item.id)).toEqual(["81A", "83A"]);
    expect(searchFeatures(index, "consonant inventories", 5).items[0]!.match).toBe("exact");
  });
});
