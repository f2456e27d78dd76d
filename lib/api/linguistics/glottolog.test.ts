import { describe, expect, it } from "vitest";
import {
  buildLanguageIndex,
  classifyLanguageCode,
  filterLanguages,
  listLanguages,
  type Language,
} from "./glottolog.ts";
import { language } from "./test-fixtures.ts";

const ie = { family_id: "indo1319", family: "Indo-European" };
const LANGUAGES: Language[] = [
  language({
    glottocode: "stan1295",
    iso639_3: "deu",
    name: "German",
    ...ie,
    classification: ["Indo-European", "Germanic"],
    macroarea: "Eurasia",
    endangerment: "not endangered",
  }),
  language({
    glottocode: "stan1293",
    iso639_3: "eng",
    name: "English",
    ...ie,
    classification: ["Indo-European", "Germanic"],
    macroarea: "Eurasia",
    endangerment: "not endangered",
  }),
  language({
    glottocode: "goth1244",
    iso639_3: "got",
    name: "Gothic",
    ...ie,
    classification: ["Indo-European", "Germanic"],
    macroarea: "Eurasia",
    endangerment: "extinct",
  }),
  language({
    glottocode: "lati1261",
    iso639_3: "lat",
    name: "Latin",
    ...ie,
    classification: ["Indo-European", "Italic"],
    macroarea: "Eurasia",
    endangerment: "extinct",
  }),
  language({
    glottocode: "basq1248",
    iso639_3: "eus",
    name: "Basque",
    is_isolate: true,
    macroarea: "Eurasia",
    endangerment: "threatened",
  }),
  language({
    glottocode: "nyan1308",
    iso639_3: "nya",
    name: "Nyanja",
    family_id: "atla1278",
    family: "Atlantic-Congo",
    classification: ["Atlantic-Congo"],
    macroarea: "Africa",
    endangerment: "not endangered",
  }),
  language({ glottocode: "ainu1252", name: "Ainu", macroarea: "Eurasia", endangerment: "nearly extinct" }),
  language({ glottocode: "arem1234", name: "Äre", macroarea: "Papunesia" }),
];

describe("buildLanguageIndex", () => {
  const index = buildLanguageIndex(LANGUAGES);

  it("sorts by folded name and indexes by ISO code and glottocode", () => {
    expect(index.languages.map((l) => l.name)).toEqual([
      "Ainu",
      "Äre",
      "Basque",
      "English",
      "German",
      "Gothic",
      "Latin",
      "Nyanja",
    ]);
    expect(index.byIso.get("eng")?.name).toBe("English");
    expect(index.byIso.size).toBe(6);
    expect(index.byGlottocode.get("ainu1252")?.name).toBe("Ainu");
  });

  it("indexes family by glottocode, family name and subgroup names; region and status by label", () => {
    expect(index.byFamily.get("indo1319")?.length).toBe(4);
    expect(index.byFamily.get("indo-european")?.length).toBe(4);
    expect(index.byFamily.get("germanic")?.map((l) => l.iso639_3)).toEqual(["eng", "deu", "got"]);
    expect(index.byRegion.get("Africa")?.map((l) => l.name)).toEqual(["Nyanja"]);
    expect(index.byStatus.get("extinct")?.map((l) => l.name)).toEqual(["Gothic", "Latin"]);
  });

  it("keeps one copy of each record, shared by every index", () => {
    expect(index.byIso.get("got")).toBe(index.byStatus.get("extinct")![0]);
  });
});

describe("filterLanguages", () => {
  const index = buildLanguageIndex(LANGUAGES);
  const names = (filters: Parameters<typeof filterLanguages>[1]) => filterLanguages(index, filters).map((l) => l.name);

  it("returns everything without filters", () => {
    expect(names({})).toHaveLength(LANGUAGES.length);
  });

  it("matches family by name in any case, by glottocode, and by subgroup", () => {
    expect(names({ family: "INDO-european" })).toEqual(["English", "German", "Gothic", "Latin"]);
    expect(names({ family: "Indo1319" })).toEqual(["English", "German", "Gothic", "Latin"]);
    expect(names({ family: "Germanic" })).toEqual(["English", "German", "Gothic"]);
    expect(names({ family: "atlantic-congo" })).toEqual(["Nyanja"]);
    expect(names({ family: "Klingonic" })).toEqual([]);
  });

  it("filters by region and status and combines filters", () => {
    expect(names({ region: "Papunesia" })).toEqual(["Äre"]);
    expect(names({ status: "nearly extinct" })).toEqual(["Ainu"]);
    expect(names({ status: "endangered" })).toEqual(["Ainu", "Basque"]);
    expect(names({ family: "Indo-European", status: "extinct" })).toEqual(["Gothic", "Latin"]);
    expect(names({ family: "Germanic", region: "Eurasia", status: "extinct" })).toEqual(["Gothic"]);
    expect(names({ region: "Africa", status: "extinct" })).toEqual([]);
  });

  it("pages with a total over all matches", () => {
    const page = listLanguages(index, { family: "Indo-European" }, { offset: 1, limit: 2 });
    expect(page.total).toBe(4);
    expect(page.languages.map((l) => l.name)).toEqual(["German", "Gothic"]);
    expect(page.languages[0]).toEqual({
      iso: "deu",
      glottocode: "stan1295",
      name: "German",
      family: "Indo-European",
      region: "Eurasia",
      status: "not endangered",
      latitude: null,
      longitude: null,
    });
    expect(listLanguages(index, {}, { offset: 100, limit: 5 })).toEqual({ total: 8, languages: [] });
  });
});

describe("classifyLanguageCode", () => {
  it("tells ISO 639-3 codes from glottocodes, and rejects other shapes", () => {
    expect(classifyLanguageCode("eng")).toBe("iso639_3");
    expect(classifyLanguageCode("stan1293")).toBe("glottocode");
    expect(classifyLanguageCode("en")).toBeNull();
    expect(classifyLanguageCode("english")).toBeNull();
    expect(classifyLanguageCode("stan129")).toBeNull();
  });
});
