import { describe, expect, it } from "vitest";
import { buildLanguageIndex, type Language } from "./glottolog.ts";
import { createPhonemeIndexBuilder, type PhonemeRow } from "./phoible.ts";
import { searchFeatures, searchLanguages, searchPhonemes } from "./search.ts";
import { buildWalsIndex, type WalsParameterRecord } from "./wals.ts";

const language = (name: string, iso639_3: string | null, glottocode: string): Language => ({
  glottocode,
  iso639_3,
  name,
  family_id: null,
  family: null,
  is_isolate: false,
  category: "Spoken L1 Language",
  classification: [],
  macroarea: null,
  countries: [],
  latitude: null,
  longitude: null,
  endangerment: null,
  endangerment_source: null,
});
const LANGUAGES = buildLanguageIndex([
  language("Old English (ca. 450-1100)", "ang", "olde1238"),
  language("English", "eng", "stan1293"),
  language("Englishes Creole", null, "engl9999"),
  language("Englisch Pidgin", "epd", "engl1234"),
  language("Volapük", "vol", "vola1234"),
  language("Engenni", "enn", "enge1239"),
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
  const builder = createPhonemeIndexBuilder(
    [1, 2].map((id) => ({
      inventory_id: id,
      glottocode: null,
      iso639_3: `l${id}x`,
      language_name: "x",
      source: "t",
      source_refs: [],
      url: null,
      count_phonemes: 0,
      count_consonants: 0,
      count_vowels: 0,
      count_tones: 0,
    })),
  );
  const c = (
    segment: string,
    manner: string,
    place: string,
    voiced: boolean,
  ): Omit<PhonemeRow, "inventory_id" | "marginal"> => ({
    segment,
    segment_class: "consonant",
    manner,
    place,
    voiced,
    airstream: "pulmonic",
    height: null,
    backness: null,
    rounded: null,
  });
  for (const [inv, row] of [
    [1, c("n", "nasal", "alveolar", true)],
    [1, c("ŋ", "nasal", "velar", true)],
    [2, c("ŋ", "nasal", "velar", true)],
    [2, c("ŋʷ", "nasal", "labial-velar", true)],
    [1, c("k", "stop", "velar", false)],
  ] as const) {
    builder.add({ ...row, inventory_id: inv, marginal: false });
  }
  const index = builder.build();

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
