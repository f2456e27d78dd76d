import { describe, expect, it } from "vitest";
import {
  buildWalsIndex,
  canonicalFeatureId,
  CATEGORY_OF_AREA,
  filterParameters,
  findFeature,
  languageDatapoints,
  parameterRecord,
  walsLanguagesOf,
  type WalsLanguage,
  type WalsParameterRecord,
} from "./wals.ts";

function parameter(id: string, chapter: number, area: string, codes: string[]): WalsParameterRecord {
  return {
    id,
    name: `Feature ${id}`,
    chapter,
    chapter_title: `Chapter ${chapter}`,
    authors: "A. Author",
    area,
    url: `https://wals.info/feature/${id}`,
    datapoints: 0,
    values: codes.map((name, i) => ({ code: `${id}-${i + 1}`, number: i + 1, name, description: null })),
  };
}
const PARAMETERS = [
  parameter("81A", 81, "Word Order", ["SOV", "SVO"]),
  parameter("1A", 1, "Phonology", ["Small", "Large"]),
  parameter("26A", 26, "Morphology", ["Little affixation", "Suffixing"]),
];
const language = (wals_code: string, iso639_3: string | null, glottocode: string | null): WalsLanguage => ({
  wals_code,
  name: wals_code,
  glottocode,
  iso639_3,
  family: null,
  genus: null,
  macroarea: null,
});
const LANGUAGES = [
  language("eng", "eng", "stan1293"),
  language("jpn", "jpn", "nucl1643"),
  language("alb", "sqi", null),
  language("ger", "deu", "stan1295"),
  language("gsw", "deu", "stan1295"),
];
const DATAPOINTS: [string, string, string][] = [
  ["eng", "81A", "81A-2"],
  ["eng", "1A", "1A-2"],
  ["jpn", "81A", "81A-1"],
  ["jpn", "26A", "26A-2"],
  ["ger", "81A", "81A-1"],
  ["gsw", "1A", "1A-1"],
];

describe("buildWalsIndex", () => {
  const index = buildWalsIndex(PARAMETERS, LANGUAGES, DATAPOINTS);

  it("orders parameters by chapter, maps areas to categories, and counts values", () => {
    expect(index.parameters.map((p) => [p.id, p.category])).toEqual([
      ["1A", "phonology"],
      ["26A", "morphology"],
      ["81A", "syntax"],
    ]);
    expect(index.parameterById.get("81A")?.counts).toEqual([2, 1]);
    expect(index.datapointCount).toBe(6);
  });

  it("indexes values by language, in WALS order", () => {
    expect(index.valuesByLanguage.get("eng")?.map((d) => d.value.code)).toEqual(["1A-2", "81A-2"]);
  });

  it("refuses datapoints with an unknown value or language", () => {
    expect(() => buildWalsIndex(PARAMETERS, LANGUAGES, [["eng", "81A", "81A-9"]])).toThrow(/unknown value/);
    expect(() => buildWalsIndex(PARAMETERS, LANGUAGES, [["eng", "1A", "81A-1"]])).toThrow(/unknown value/);
    expect(() => buildWalsIndex(PARAMETERS, LANGUAGES, [["xxx", "81A", "81A-1"]])).toThrow(/unknown language/);
    expect(() => buildWalsIndex([parameter("9Z", 9, "Astrology", [])], [], [])).toThrow(/unmapped area/);
  });

  it("maps every WALS area to one category", () => {
    expect(new Set(Object.values(CATEGORY_OF_AREA))).toEqual(
      new Set(["phonology", "morphology", "syntax", "lexicon", "other"]),
    );
  });
});

describe("WALS queries", () => {
  const index = buildWalsIndex(PARAMETERS, LANGUAGES, DATAPOINTS);

  it("reads feature ids in any case, and rejects other shapes", () => {
    expect(canonicalFeatureId("81a")).toBe("81A");
    expect(canonicalFeatureId(" 1A ")).toBe("1A");
    expect(canonicalFeatureId("081A")).toBe("81A");
    expect(canonicalFeatureId("A1")).toBeNull();
    expect(canonicalFeatureId("word order")).toBeNull();
  });

  it("finds a feature by id, 400 for a malformed id and 404 for an unknown one", () => {
    expect(findFeature(index, "81a").id).toBe("81A");
    expect(() => findFeature(index, "word order")).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => findFeature(index, "99Z")).toThrow(
      expect.objectContaining({ status: 404, message: "unknown WALS feature '99Z'" }),
    );
  });

  it("filters parameters by feature and category", () => {
    expect(filterParameters(index, { category: "syntax" }).map((p) => p.id)).toEqual(["81A"]);
    expect(filterParameters(index, { feature: index.parameterById.get("1A") }).map((p) => p.id)).toEqual(["1A"]);
    expect(filterParameters(index, { feature: index.parameterById.get("1A"), category: "syntax" })).toEqual([]);
  });

  it("joins WALS languages on glottocode or ISO code", () => {
    expect(walsLanguagesOf(index, { glottocode: "stan1295", iso639_3: "deu" }).map((l) => l.wals_code)).toEqual([
      "ger",
      "gsw",
    ]);
    expect(walsLanguagesOf(index, { glottocode: "alba1267", iso639_3: "sqi" }).map((l) => l.wals_code)).toEqual([
      "alb",
    ]);
    expect(walsLanguagesOf(index, { glottocode: null, iso639_3: "zzz" })).toEqual([]);
  });

  it("lists a language's values over all its WALS doculects, filtered", () => {
    const german = walsLanguagesOf(index, { glottocode: "stan1295", iso639_3: "deu" });
    expect(languageDatapoints(index, german, {}).map((d) => [d.wals_code, d.parameter.id, d.value.name])).toEqual([
      ["gsw", "1A", "Small"],
      ["ger", "81A", "SOV"],
    ]);
    expect(languageDatapoints(index, german, { category: "phonology" }).map((d) => d.wals_code)).toEqual(["gsw"]);
  });

  it("shapes a parameter with its value distribution", () => {
    const record = parameterRecord(index.parameterById.get("81A")!);
    expect(record.languages).toBe(3);
    expect(record.values.map((v) => [v.name, v.count, v.share])).toEqual([
      ["SOV", 2, 0.6667],
      ["SVO", 1, 0.3333],
    ]);
  });
});
