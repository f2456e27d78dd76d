import { describe, expect, it } from "vitest";
import { GatewayError } from "../../errors.ts";
import { buildLanguageIndex, type Language } from "./glottolog.ts";
import { languageProfile, resolveLanguage } from "./language-profile.ts";
import { inventory as baseInventory, phonemeIndex, phoneme } from "./test-fixtures.ts";
import { buildWalsIndex } from "./wals.ts";

const english: Language = {
  glottocode: "stan1293",
  iso639_3: "eng",
  name: "English",
  family_id: "indo1319",
  family: "Indo-European",
  is_isolate: false,
  category: "Spoken L1 Language",
  classification: ["Indo-European", "Germanic"],
  macroarea: "Eurasia",
  countries: ["GB"],
  latitude: 53,
  longitude: -1,
  endangerment: "not endangered",
  endangerment_source: "E29",
};
const inventory = (inventory_id: number, iso639_3: string, glottocode: string, language_name: string) =>
  baseInventory(inventory_id, iso639_3, glottocode, {
    language_name,
    source: "spa",
    source_refs: ["Ref1"],
    count_phonemes: 2,
    count_consonants: 1,
    count_vowels: 1,
  });

function sources() {
  const glottolog = buildLanguageIndex([english]);
  // Inventory 7 is filed under a dialect's glottocode, 9 under English's own: 9 is the one shown.
  const phoible = phonemeIndex(
    [
      inventory(7, "eng", "dial1234", "English (dialect)"),
      inventory(9, "eng", "stan1293", "English"),
      inventory(11, "hrv", "croa1245", "Croatian"),
    ],
    [7, 9, 11].flatMap((id) => [
      [id, phoneme("p", "consonant", { manner: "stop", place: "bilabial" }), false] as const,
      [id, phoneme("a", "vowel", { height: "open" }), false] as const,
    ]),
  );
  const wals = buildWalsIndex(
    [
      {
        id: "1A",
        name: "Consonant Inventories",
        chapter: 1,
        chapter_title: "Consonant Inventories",
        authors: "",
        area: "Phonology",
        url: "",
        datapoints: 1,
        values: [{ code: "1A-3", number: 3, name: "Average", description: null }],
      },
    ],
    [
      {
        wals_code: "eng",
        name: "English",
        glottocode: "stan1293",
        iso639_3: "eng",
        family: "Indo-European",
        genus: "Germanic",
        macroarea: "Eurasia",
      },
      {
        wals_code: "scr",
        name: "Serbian-Croatian",
        glottocode: null,
        iso639_3: "hbs",
        family: null,
        genus: null,
        macroarea: null,
      },
    ],
    [["eng", "1A", "1A-3"]],
  );
  return { glottolog, phoible, wals };
}

describe("resolveLanguage", () => {
  const data = sources();
  const status = (code: string) => {
    try {
      resolveLanguage(data, code);
      return 200;
    } catch (err) {
      return (err as GatewayError).status;
    }
  };

  it("resolves ISO codes and glottocodes in any case through Glottolog", () => {
    expect(resolveLanguage(data, "ENG")).toMatchObject({ iso639_3: "eng", glottocode: "stan1293", record: english });
    expect(resolveLanguage(data, "Stan1293").name).toBe("English");
  });

  it("falls back to PHOIBLE, then WALS, for codes Glottolog does not list as a language", () => {
    expect(resolveLanguage(data, "hrv")).toEqual({
      iso639_3: "hrv",
      glottocode: "croa1245",
      name: "Croatian",
      record: null,
    });
    expect(resolveLanguage(data, "hbs")).toEqual({
      iso639_3: "hbs",
      glottocode: null,
      name: "Serbian-Croatian",
      record: null,
    });
    expect(status("hrv")).toBe(200);
    expect(() => resolveLanguage({ glottolog: data.glottolog }, "hrv")).toThrow(/unknown language 'hrv'/);
  });

  it("404s unknown codes and 400s malformed ones", () => {
    expect(status("zzz")).toBe(404);
    expect(status("zzzz0000")).toBe(404);
    expect(status("en")).toBe(400);
    expect(status("english")).toBe(400);
  });
});

describe("languageProfile", () => {
  const data = sources();

  it("joins Glottolog, WALS and PHOIBLE, showing the inventory filed under the language's own glottocode", () => {
    const profile = languageProfile(data, resolveLanguage(data, "eng"));
    expect(profile).toMatchObject({
      iso: "eng",
      name: "English",
      in_glottolog: true,
      family: "Indo-European",
      region: "Eurasia",
      status: "not endangered",
      status_source: "E29",
    });
    expect(profile.wals_features).toEqual([
      {
        parameter_id: "1A",
        name: "Consonant Inventories",
        category: "phonology",
        area: "Phonology",
        value: { code: "1A-3", number: 3, name: "Average", description: null },
        wals_code: "eng",
      },
    ]);
    expect(profile.phoneme_inventory).toMatchObject({ inventory_id: 9, consonants: ["p"], vowels: ["a"], tones: [] });
    expect(profile.phoneme_inventories.map((i) => i.inventory_id)).toEqual([7, 9]);
  });

  it("shows a chosen inventory, and 404s one that is not the language's", () => {
    const ref = resolveLanguage(data, "eng");
    expect(languageProfile(data, ref, { inventory: 7 }).phoneme_inventory?.inventory_id).toBe(7);
    expect(() => languageProfile(data, ref, { inventory: 11 })).toThrow(/inventory 11/);
  });

  it("profiles a language known only to PHOIBLE, without Glottolog fields", () => {
    const profile = languageProfile(data, resolveLanguage(data, "hrv"));
    expect(profile).toMatchObject({
      iso: "hrv",
      in_glottolog: false,
      family: null,
      classification: [],
      wals_features: [],
    });
    expect(profile.phoneme_inventory?.inventory_id).toBe(11);
  });
});
