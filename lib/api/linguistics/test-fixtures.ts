// Records for the linguistics unit tests: each test names only the fields it is about.
import type { Language } from "./glottolog.ts";
import { createPhonemeIndexBuilder, type InventoryRecord, type PhonemeIndex, type PhonemeRow } from "./phoible.ts";

/** A Glottolog language with no family, place or status unless given. */
export function language(fields: Partial<Language> & Pick<Language, "glottocode" | "name">): Language {
  return {
    iso639_3: null,
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
    ...fields,
  };
}

/** A PHOIBLE inventory named after its ISO code, with no sources or counts unless given. */
export function inventory(
  inventory_id: number,
  iso639_3: string,
  glottocode: string | null,
  fields: Partial<InventoryRecord> = {},
): InventoryRecord {
  return {
    inventory_id,
    glottocode,
    iso639_3,
    language_name: iso639_3,
    source: "test",
    source_refs: [],
    url: null,
    count_phonemes: 0,
    count_consonants: 0,
    count_vowels: 0,
    count_tones: 0,
    ...fields,
  };
}

/** A phoneme as PHOIBLE describes it, before it is placed in an inventory. */
export type Phoneme = Omit<PhonemeRow, "inventory_id" | "marginal">;

/** A phoneme with every feature null but those given. */
export function phoneme(
  segment: string,
  segment_class: Phoneme["segment_class"],
  features: Partial<Phoneme> = {},
): Phoneme {
  return {
    segment,
    segment_class,
    manner: null,
    place: null,
    voiced: null,
    airstream: null,
    height: null,
    backness: null,
    rounded: null,
    ...features,
  };
}

export const consonant = (segment: string, manner: string, place: string, voiced: boolean): Phoneme =>
  phoneme(segment, "consonant", { manner, place, voiced, airstream: "pulmonic" });
export const vowel = (segment: string, height: string, backness: string, rounded: boolean): Phoneme =>
  phoneme(segment, "vowel", { height, backness, rounded });
export const tone = (segment: string): Phoneme => phoneme(segment, "tone");

/** A phoneme index over `inventories`, each row `[inventory id, phoneme, marginal]`. */
export function phonemeIndex(
  inventories: InventoryRecord[],
  rows: ReadonlyArray<readonly [number, Phoneme, boolean]>,
): PhonemeIndex {
  const builder = createPhonemeIndexBuilder(inventories);
  for (const [inventory_id, row, marginal] of rows) builder.add({ ...row, inventory_id, marginal });
  return builder.build();
}
