import type { Language, LanguageIndex } from "./glottolog.ts";
import type { PhonemeIndex, Segment } from "./phoible.ts";
import { bestTier, foldText, matchTier, TIER_ORDER, type MatchTier } from "./text-match.ts";
import type { WalsIndex, WalsParameter } from "./wals.ts";

export const SEARCH_TYPES = ["languages", "phonemes", "features"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export type Ranked<T> = { item: T; match: MatchTier };
export type RankedPage<T> = { total: number; items: Ranked<T>[] };

/** Orders by tier, then by the caller's tie-break, and keeps the first `limit`. */
function rank<T>(matches: (Ranked<T> & { position: number })[], limit: number, tieBreak: (a: T, b: T) => number): RankedPage<T> {
  matches.sort((a, b) => TIER_ORDER[a.match] - TIER_ORDER[b.match] || tieBreak(a.item, b.item) || a.position - b.position);
  return { total: matches.length, items: matches.slice(0, limit).map(({ item, match }) => ({ item, match })) };
}

/**
 * Languages by name (folded: case and diacritics ignored) or by exact ISO 639-3 code or glottocode.
 * Within a tier, languages with an ISO code come first, then shorter names (the closer match).
 */
export function searchLanguages(index: LanguageIndex, query: string, limit: number): RankedPage<Language> {
  const q = foldText(query);
  const matches: (Ranked<Language> & { position: number })[] = [];
  index.languages.forEach((language, position) => {
    const codeHit = language.iso639_3 === q || language.glottocode === q ? "exact" : null;
    const match = bestTier(codeHit, matchTier(index.foldedNames[position]!, q));
    if (match) matches.push({ item: language, match, position });
  });
  return rank(matches, limit, (a, b) => Number(b.iso639_3 !== null) - Number(a.iso639_3 !== null) || a.name.length - b.name.length);
}

// Descriptive labels are matched only from this length on: one or two letters are IPA symbols.
const MIN_LABEL_QUERY = 3;

/**
 * Segments by IPA symbol (compared in NFD, diacritics significant) and, for longer queries, by
 * their description ("velar nasal", "front rounded vowel"). Ties: the more widespread segment first.
 */
export function searchPhonemes(index: PhonemeIndex, query: string, limit: number): RankedPage<Segment> {
  const symbol = query.trim().normalize("NFD");
  const words = foldText(query);
  const matches: (Ranked<Segment> & { position: number })[] = [];
  index.segments.forEach((segment, position) => {
    const bySymbol = matchTier(segment.segment.normalize("NFD"), symbol);
    const byLabel = words.length >= MIN_LABEL_QUERY ? labelTier(segment.label, words) : null;
    const match = bestTier(bySymbol, byLabel);
    if (match) matches.push({ item: segment, match, position });
  });
  return rank(matches, limit, (a, b) => b.inventories - a.inventories);
}

// "velar nasal" matches "voiced velar nasal" as well as "velar nasal": labels are read word by word.
function labelTier(label: string, words: string): MatchTier | null {
  const direct = matchTier(label, words);
  if (direct !== "substring") return direct;
  return label.endsWith(` ${words}`) || label.includes(` ${words} `) ? "prefix" : "substring";
}

/** WALS features by exact id ("1A"), or by name or chapter title. Ties: WALS order. */
export function searchFeatures(index: WalsIndex, query: string, limit: number): RankedPage<WalsParameter> {
  const q = foldText(query);
  const matches: (Ranked<WalsParameter> & { position: number })[] = [];
  index.parameters.forEach((parameter, position) => {
    const idHit = parameter.folded.id === q ? "exact" : null;
    const match = bestTier(idHit, bestTier(matchTier(parameter.folded.name, q), matchTier(parameter.folded.chapter, q)));
    if (match) matches.push({ item: parameter, match, position });
  });
  return rank(matches, limit, () => 0);
}
