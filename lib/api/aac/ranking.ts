import { distance } from "fastest-levenshtein";
import { normaliseKeyword } from "./normalise.ts";
import { lemmatizer } from "../../text/lemmatizer.ts";

/**
 * The documented ranking: how well a query matches a keyword, 0..1. A symbol's score is its best
 * keyword's score; results are sorted by score, then by a stable per-source order.
 */
export const SCORES = {
  exact: 1,
  /** "dogs" → "dog", "running" → "run": the query and the keyword share a lemma. */
  lemma: 0.9,
  /** Prefix scores 0.7 + 0.1 × (query length / keyword length): "ap" < "appl" < "apple". */
  prefixBase: 0.7,
  prefixSpan: 0.1,
  /** One edit away; two edits score `fuzzyTwo`. */
  fuzzyOne: 0.6,
  fuzzyTwo: 0.4,
  /** The query is a synonym or related word of the symbol (emoji keyword sets, Mulberry tags). */
  synonym: 0.5,
  /** An upstream pictogram the upstream matched on something none of its keywords show (tags, synsets). */
  upstreamOnly: 0.3,
} as const;

/** Queries shorter than this get no prefix matches ("a" would match half the set). */
export const MIN_PREFIX_LENGTH = 2;
/** Queries shorter than this get no fuzzy matches: one edit changes too much of a short word. */
export const MIN_FUZZY_LENGTH = 3;

const round = (n: number) => Math.round(n * 1000) / 1000;

export function prefixScore(query: string, keyword: string): number {
  return round(SCORES.prefixBase + SCORES.prefixSpan * (query.length / keyword.length));
}

/** Edits allowed for a query of this length: 1 up to four letters, 2 beyond. */
export function maxEdits(length: number): number {
  return length <= 4 ? 1 : 2;
}

export function fuzzyScore(edits: number): number {
  return edits <= 1 ? SCORES.fuzzyOne : SCORES.fuzzyTwo;
}

/**
 * The lemma spellings of a normalised phrase other than itself: every word through the noun, the
 * verb and the adjective lemmatiser ("dogs" → "dog", "running" → "run", "ice creams" → "ice cream").
 * Words with an apostrophe are kept as they are.
 */
export function lemmaForms(key: string): string[] {
  const words = key.split(" ");
  const forms = new Set<string>();
  const { noun, verb, adjective } = lemmatizer();
  for (const lemma of [noun, verb, adjective]) {
    const form = words.map((w) => (w.includes("'") || /\d/.test(w) ? w : lemma(w))).join(" ");
    if (form !== key) forms.add(form);
  }
  return [...forms];
}

export type KeywordMatch = { keyword: string; score: number };

/**
 * The best tier a query reaches against a short list of keywords (an upstream pictogram's), by the
 * same rules as the local index: exact, lemma, prefix, then fuzzy; null when none applies.
 */
export function scoreKeywords(query: string, keywords: readonly string[]): KeywordMatch | null {
  const key = normaliseKeyword(query);
  if (!key) return null;
  const normal = keywords.map((k) => ({ raw: k, key: normaliseKeyword(k) })).filter((k) => k.key);
  const exact = normal.find((k) => k.key === key);
  if (exact) return { keyword: exact.raw, score: SCORES.exact };
  const queryLemmas = new Set([key, ...lemmaForms(key)]);
  const lemma = normal.find((k) => queryLemmas.has(k.key) || lemmaForms(k.key).some((f) => queryLemmas.has(f)));
  if (lemma) return { keyword: lemma.raw, score: SCORES.lemma };
  let best: KeywordMatch | null = null;
  const better = (m: KeywordMatch) => {
    if (!best || m.score > best.score) best = m;
  };
  if (key.length >= MIN_PREFIX_LENGTH)
    for (const k of normal) if (k.key.startsWith(key)) better({ keyword: k.raw, score: prefixScore(key, k.key) });
  if (!best && key.length >= MIN_FUZZY_LENGTH) {
    const limit = maxEdits(key.length);
    for (const k of normal) {
      if (Math.abs(k.key.length - key.length) > limit) continue;
      const edits = distance(key, k.key);
      if (edits <= limit) better({ keyword: k.raw, score: fuzzyScore(edits) });
    }
  }
  return best;
}
