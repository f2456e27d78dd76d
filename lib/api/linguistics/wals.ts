import { GatewayError } from "../../errors.ts";
import { fileUnderCodes, filedUnderCodes, push, type LanguageCodes } from "./code-index.ts";
import { foldText } from "./text-match.ts";

/**
 * WALS areas grouped into the categories the API filters by. The spec names phonology, morphology
 * and syntax; lexicon and other stay separate rather than being forced into a grammatical category.
 */
export const CATEGORY_OF_AREA: Record<string, FeatureCategory> = {
  Phonology: "phonology",
  Morphology: "morphology",
  "Nominal Categories": "morphology",
  "Verbal Categories": "morphology",
  "Nominal Syntax": "syntax",
  "Word Order": "syntax",
  "Simple Clauses": "syntax",
  "Complex Sentences": "syntax",
  Lexicon: "lexicon",
  "Sign Languages": "other",
  Other: "other",
};
export const FEATURE_CATEGORIES = ["phonology", "morphology", "syntax", "lexicon", "other"] as const;
export type FeatureCategory = (typeof FEATURE_CATEGORIES)[number];

export type WalsValue = { code: string; number: number; name: string; description: string | null };

/** One record of data/wals_parameters.json. */
export type WalsParameterRecord = {
  id: string;
  name: string;
  chapter: number;
  chapter_title: string;
  authors: string;
  area: string;
  url: string;
  datapoints: number;
  values: WalsValue[];
};

export type WalsParameter = Omit<WalsParameterRecord, "values"> & {
  category: FeatureCategory;
  values: WalsValue[];
  /** Datapoints per value, aligned with `values`. */
  counts: number[];
  /** Folded "id name chapter title" for search. */
  folded: { id: string; name: string; chapter: string };
};

/** One record of data/wals_languages.json. */
export type WalsLanguage = {
  wals_code: string;
  name: string;
  glottocode: string | null;
  iso639_3: string | null;
  family: string | null;
  genus: string | null;
  macroarea: string | null;
};

/** A WALS datapoint of one language: which parameter, which of its values. */
export type Datapoint = { parameter: WalsParameter; value: WalsValue };

export type WalsIndex = {
  /** In WALS order: by chapter, then feature letter. */
  parameters: WalsParameter[];
  parameterById: Map<string, WalsParameter>;
  languages: WalsLanguage[];
  byWalsCode: Map<string, WalsLanguage>;
  byIso: Map<string, WalsLanguage[]>;
  byGlottocode: Map<string, WalsLanguage[]>;
  valuesByLanguage: Map<string, Datapoint[]>;
  datapointCount: number;
};

function featureOrder(a: { chapter: number; id: string }, b: { chapter: number; id: string }): number {
  return a.chapter - b.chapter || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Indexes parameters, languages and datapoints. `datapoints` yields [wals_code, parameter_id, value_code]
 * triples (the rows of wals_values.csv); an unknown parameter or value code is a data error.
 */
export function buildWalsIndex(
  parameterRecords: WalsParameterRecord[],
  languageRecords: WalsLanguage[],
  datapoints: Iterable<[string, string, string]>,
): WalsIndex {
  const parameters: WalsParameter[] = parameterRecords
    .map((p) => {
      const category = CATEGORY_OF_AREA[p.area];
      if (!category) throw new Error(`WALS parameter ${p.id} has unmapped area '${p.area}'`);
      return {
        id: p.id,
        name: p.name,
        chapter: p.chapter,
        chapter_title: p.chapter_title,
        authors: p.authors,
        area: p.area,
        url: p.url,
        datapoints: p.datapoints,
        category,
        values: p.values,
        counts: p.values.map(() => 0),
        folded: { id: p.id.toLowerCase(), name: foldText(p.name), chapter: foldText(p.chapter_title) },
      };
    })
    .sort(featureOrder);
  const parameterById = new Map(parameters.map((p) => [p.id, p]));
  const valueByCode = new Map<string, { parameter: WalsParameter; position: number }>();
  for (const parameter of parameters)
    parameter.values.forEach((v, position) => valueByCode.set(v.code, { parameter, position }));

  const languages = languageRecords.map((l) => ({
    wals_code: l.wals_code,
    name: l.name,
    glottocode: l.glottocode,
    iso639_3: l.iso639_3,
    family: l.family,
    genus: l.genus,
    macroarea: l.macroarea,
  }));
  const index: WalsIndex = {
    parameters,
    parameterById,
    languages,
    byWalsCode: new Map(languages.map((l) => [l.wals_code, l])),
    byIso: new Map(),
    byGlottocode: new Map(),
    valuesByLanguage: new Map(),
    datapointCount: 0,
  };
  for (const language of languages) fileUnderCodes(index, language, language);
  for (const [walsCode, parameterId, valueCode] of datapoints) {
    const found = valueByCode.get(valueCode);
    if (!found || found.parameter.id !== parameterId)
      throw new Error(`WALS datapoint ${walsCode}/${parameterId} has unknown value '${valueCode}'`);
    if (!index.byWalsCode.has(walsCode)) throw new Error(`WALS datapoint names unknown language '${walsCode}'`);
    found.parameter.counts[found.position]! += 1;
    push(index.valuesByLanguage, walsCode, {
      parameter: found.parameter,
      value: found.parameter.values[found.position]!,
    });
    index.datapointCount += 1;
  }
  for (const values of index.valuesByLanguage.values()) values.sort((a, b) => featureOrder(a.parameter, b.parameter));
  return index;
}

/** "1a" and "1A" name feature 1A. Returns the canonical id, or null when the text is not shaped like one. */
export function canonicalFeatureId(text: string): string | null {
  const match = /^\s*(\d{1,3})([a-z])\s*$/i.exec(text);
  return match ? `${Number(match[1])}${match[2]!.toUpperCase()}` : null;
}

/** The feature a caller named: 400 when the text is not shaped like a feature id, 404 when WALS has no such feature. */
export function findFeature(index: WalsIndex, text: string): WalsParameter {
  const id = canonicalFeatureId(text);
  if (!id) throw new GatewayError(400, `'${text}' is not a WALS feature id (e.g. 1A, 81A)`);
  const parameter = index.parameterById.get(id);
  if (!parameter) throw new GatewayError(404, `unknown WALS feature '${id}'`);
  return parameter;
}

/** The WALS languages standing for one Glottolog language: joined on glottocode, or else on ISO 639-3. */
export function walsLanguagesOf(index: WalsIndex, language: LanguageCodes): WalsLanguage[] {
  return filedUnderCodes(index, language).sort((a, b) => (a.wals_code < b.wals_code ? -1 : 1));
}

export type FeatureFilters = { feature?: WalsParameter; category?: FeatureCategory };

function keep(parameter: WalsParameter, filters: FeatureFilters): boolean {
  return (
    (!filters.feature || parameter === filters.feature) &&
    (!filters.category || parameter.category === filters.category)
  );
}

export function filterParameters(index: WalsIndex, filters: FeatureFilters): WalsParameter[] {
  return index.parameters.filter((p) => keep(p, filters));
}

/** One language's datapoints (over all its WALS doculects), filtered, in WALS order. */
export function languageDatapoints(index: WalsIndex, walsLanguages: WalsLanguage[], filters: FeatureFilters) {
  const out: (Datapoint & { wals_code: string })[] = [];
  for (const language of walsLanguages) {
    for (const datapoint of index.valuesByLanguage.get(language.wals_code) ?? []) {
      if (keep(datapoint.parameter, filters)) out.push({ ...datapoint, wals_code: language.wals_code });
    }
  }
  return out.sort((a, b) => featureOrder(a.parameter, b.parameter) || (a.wals_code < b.wals_code ? -1 : 1));
}

/** The public shape of a parameter, with how many languages take each value. */
export function parameterRecord(parameter: WalsParameter) {
  const total = parameter.counts.reduce((sum, n) => sum + n, 0);
  return {
    id: parameter.id,
    name: parameter.name,
    chapter: parameter.chapter,
    chapter_title: parameter.chapter_title,
    area: parameter.area,
    category: parameter.category,
    authors: parameter.authors,
    url: parameter.url,
    languages: total,
    values: parameter.values.map((value, i) => ({
      code: value.code,
      number: value.number,
      name: value.name,
      description: value.description,
      count: parameter.counts[i]!,
      share: total ? Math.round((parameter.counts[i]! / total) * 10000) / 10000 : 0,
    })),
  };
}

/** The public shape of one language's value for one parameter. */
export function datapointRecord(datapoint: Datapoint & { wals_code: string }) {
  return {
    parameter_id: datapoint.parameter.id,
    name: datapoint.parameter.name,
    category: datapoint.parameter.category,
    area: datapoint.parameter.area,
    value: {
      code: datapoint.value.code,
      number: datapoint.value.number,
      name: datapoint.value.name,
      description: datapoint.value.description,
    },
    wals_code: datapoint.wals_code,
  };
}
