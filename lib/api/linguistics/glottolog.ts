import { push } from "./code-index.ts";
import { foldText } from "./text-match.ts";

/** One Glottolog languoid of level `language`, as shipped in data/languages.json. */
export type Language = {
  glottocode: string;
  iso639_3: string | null;
  name: string;
  family_id: string | null;
  family: string | null;
  is_isolate: boolean;
  category: string;
  classification: string[];
  macroarea: string | null;
  countries: string[];
  latitude: number | null;
  longitude: number | null;
  endangerment: string | null;
  endangerment_source: string | null;
};

export const MACROAREAS = ["Africa", "Australia", "Eurasia", "North America", "Papunesia", "South America"] as const;
export type Macroarea = (typeof MACROAREAS)[number];

/** Glottolog's AES endangerment levels, least to most endangered. */
export const STATUSES = ["not endangered", "threatened", "shifting", "moribund", "nearly extinct", "extinct"] as const;
export type Status = (typeof STATUSES)[number];
/** The levels a client asking for "endangered" languages means: between not endangered and extinct. */
export const ENDANGERED: readonly Status[] = ["threatened", "shifting", "moribund", "nearly extinct"];
/** What the status filter accepts: a level, or "endangered" for any of ENDANGERED. */
export const STATUS_FILTERS = [...STATUSES, "endangered"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** "North_America", "north-america" and "North America" name the same macroarea (likewise statuses). */
export function normaliseLabel(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, " ");
}

export type LanguageIndex = {
  /** Every language, sorted by folded name then glottocode, so pages are stable. */
  languages: Language[];
  /** Folded names, aligned with `languages`, for search. */
  foldedNames: string[];
  byIso: Map<string, Language>;
  byGlottocode: Map<string, Language>;
  /** Keys: the family's glottocode, its folded name, and the folded name of every subgroup above the language. */
  byFamily: Map<string, Language[]>;
  byRegion: Map<Macroarea, Language[]>;
  byStatus: Map<StatusFilter, Language[]>;
};

/** Builds every index once; the records themselves are kept only once, shared by all indexes. */
export function buildLanguageIndex(records: Language[]): LanguageIndex {
  const keyed = records.map((language) => ({ language, folded: foldText(language.name) }));
  keyed.sort((a, b) =>
    a.folded < b.folded ? -1 : a.folded > b.folded ? 1 : a.language.glottocode < b.language.glottocode ? -1 : 1,
  );
  const index: LanguageIndex = {
    languages: keyed.map((k) => k.language),
    foldedNames: keyed.map((k) => k.folded),
    byIso: new Map(),
    byGlottocode: new Map(),
    byFamily: new Map(),
    byRegion: new Map(),
    byStatus: new Map(),
  };
  const regions = new Set<string>(MACROAREAS);
  const statuses = new Set<string>(STATUSES);
  const endangered = new Set<string>(ENDANGERED);
  for (const language of index.languages) {
    index.byGlottocode.set(language.glottocode, language);
    if (language.iso639_3) index.byIso.set(language.iso639_3, language);
    const familyKeys = new Set<string>();
    if (language.family_id) familyKeys.add(language.family_id);
    if (language.family) familyKeys.add(foldText(language.family));
    for (const group of language.classification) familyKeys.add(foldText(group));
    for (const key of familyKeys) push(index.byFamily, key, language);
    if (language.macroarea && regions.has(language.macroarea))
      push(index.byRegion, language.macroarea as Macroarea, language);
    if (language.endangerment && statuses.has(language.endangerment)) {
      push(index.byStatus, language.endangerment as Status, language);
      if (endangered.has(language.endangerment)) push(index.byStatus, "endangered", language);
    }
  }
  return index;
}

export type LanguageFilters = { family?: string; region?: Macroarea; status?: StatusFilter };

/** Languages matching every given filter, in index order. `family` is a glottocode or a (sub)family name. */
export function filterLanguages(index: LanguageIndex, filters: LanguageFilters): Language[] {
  const candidates: Language[][] = [];
  if (filters.family !== undefined) {
    const family = filters.family.trim();
    candidates.push(index.byFamily.get(family.toLowerCase()) ?? index.byFamily.get(foldText(family)) ?? []);
  }
  if (filters.region) candidates.push(index.byRegion.get(filters.region) ?? []);
  if (filters.status) candidates.push(index.byStatus.get(filters.status) ?? []);
  if (candidates.length === 0) return index.languages;
  // Walk the smallest list and test membership in the others: each list is already in index order.
  candidates.sort((a, b) => a.length - b.length);
  const [smallest, ...rest] = candidates as [Language[], ...Language[][]];
  if (rest.length === 0) return smallest;
  const others = rest.map((list) => new Set(list));
  return smallest.filter((language) => others.every((set) => set.has(language)));
}

/** An ISO 639-3 code (three letters) or a glottocode (four letters or digits, then four digits). */
export type CodeKind = "iso639_3" | "glottocode";

export function classifyLanguageCode(code: string): CodeKind | null {
  if (/^[a-z]{3}$/.test(code)) return "iso639_3";
  if (/^[a-z0-9]{4}[0-9]{4}$/.test(code)) return "glottocode";
  return null;
}

/** The list item of /v1/linguistics/languages. */
export function summariseLanguage(language: Language) {
  return {
    iso: language.iso639_3,
    glottocode: language.glottocode,
    name: language.name,
    family: language.family,
    region: language.macroarea,
    status: language.endangerment,
    latitude: language.latitude,
    longitude: language.longitude,
  };
}

/** One page of the filtered list; `total` counts every match, not just the page. */
export function listLanguages(index: LanguageIndex, filters: LanguageFilters, page: { offset: number; limit: number }) {
  const matches = filterLanguages(index, filters);
  return {
    total: matches.length,
    languages: matches.slice(page.offset, page.offset + page.limit).map(summariseLanguage),
  };
}
