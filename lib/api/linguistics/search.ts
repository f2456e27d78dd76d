import type { Language, LanguageIndex } from "./glottolog.ts";
import type { PhonemeIndex, Segment } from "./phoible.ts";
import { bestTier, foldText, matchTier, TIER_ORDER, type MatchTier } from "./text-match.ts";
import type { WalsIndex, WalsParameter } from "./wals.ts";

export const SEARCH_TYPES = ["languages", "phonemes", "features"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export type Ranked<T> = { item: T; match: MatchTier };
export type RankedPage<T> = { total: number; items: Ranked<T>[] };

// Each hit is one number: tier, then the caller's tie-break (0..99,999), then position (0..99,999).
// Sorting plain numbers keeps ranking all 8,605 languages for a one-letter query at about a millisecond.
const POSITION = 1e5;
const TIE = 1e5;
const TIERS: MatchTier[] = ["exact", "prefix", "substring"];

function hitKey(match: MatchTier, tie: number, position: number): number {
  return (TIER_ORDER[match] * TIE + Math.min(Math.max(tie, 0), TIE - 1)) * POSITION + position;
}

/** Orders hits by their keys and keeps the first `limit`. */
function rank<T>(items: readonly T[], hits: number[], limit: number): RankedPage<T> {
  const sorted = Float64Array.from(hits).sort();
  const top = Array.from(sorted.subarray(0, limit), (key) => ({
    item: items[key % POSITION]!,
    match: TIERS[Math.floor(key / (TIE * POSITION))]!,
  }));
  return { total: hits.length, items: top };
}

/**
 * Languages by name (folded: case and diacritics ignored) or by exact ISO 639-3 code or glottocode.
 * Within a tier, languages with an ISO code come first, then shorter names (the closer match).
 */
export function searchLanguages(index: LanguageIndex, query: string, limit: number): RankedPage<Language> {
  const q = foldText(query);
  const hits: number[] = [];
  index.languages.forEach((language, position) => {
    const codeHit = language.iso639_3 === q || language.glottocode === q ? "exact" : null;
    const match = bestTier(codeHit, matchTier(index.foldedNames[position]!, q));
    if (match) hits.push(hitKey(match, (language.iso639_3 ? 0 : 1000) + Math.min(language.name.length, 999), position));
  });
  return rank(index.languages, hits, limit);
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
  const hits: number[] = [];
  index.segments.forEach((segment, position) => {
    const bySymbol = matchTier(segment.segment.normalize("NFD"), symbol);
    const byLabel = words.length >= MIN_LABEL_QUERY ? labelTier(segment.label, words) : null;
    const match = bestTier(bySymbol, byLabel);
    // Segments are stored most widespread first, so position alone breaks ties that way.
    if (match) hits.push(hitKey(match, 0, position));
  });
  return rank(index.segments, hits, limit);
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
  const hits: number[] = [];
  index.parameters.forEach((parameter, position) => {
    const idHit = parameter.folded.id === q ? "exact" : null;
    const match = bestTier(
      idHit,
      bestTier(matchTier(parameter.folded.name, q), matchTier(parameter.folded.chapter, q)),
    );
    if (match) hits.push(hitKey(match, 0, position));
  });
  return rank(index.parameters, hits, limit);
}
