import { distance } from "fastest-levenshtein";
import { firstAtLeast } from "../../text/sorted-strings.ts";
import { normaliseKeyword } from "./normalise.ts";
import {
  fuzzyScore,
  lemmaForms,
  maxEdits,
  MIN_FUZZY_LENGTH,
  MIN_PREFIX_LENGTH,
  prefixScore,
  SCORES,
} from "./ranking.ts";
import { LOCAL_LICENCES, readLocalSymbols, type LocalSource, type LocalSymbolRecord } from "./symbols.ts";

/** An AAC symbol result (SPEC "AAC symbol result") carrying the Form A record fields too. */
export type AacSymbol = {
  id: number;
  /** The symbol's name. */
  word: string;
  /** The keyword the query matched. */
  keyword: string;
  keywords: string[];
  icon_url: string;
  url: string;
  source: string;
  license: string;
  score: number;
  author: string;
  attribution: string;
};

type Base = Omit<AacSymbol, "keyword" | "score"> & {
  /** This symbol's fixed fields as JSON object members, serialised once at build time. */
  json: string;
};

/**
 * The in-memory search structure over the local symbols, built once. Symbol numbers are positions in
 * `symbols`, which is already in tiebreak order, so "lower number first" is the stable tiebreak.
 */
export type SymbolIndex = {
  symbols: LocalSymbolRecord[];
  bases: Base[];
  exact: Map<string, number[]>;
  /** A lemma spelling of a keyword → the symbols and the keyword it came from. */
  lemma: Map<string, Array<{ symbol: number; keyword: string }>>;
  synonyms: Map<string, number[]>;
  /** Every distinct keyword, sorted, for prefix lookups by binary search. */
  sorted: string[];
  /** Distinct keywords by length, so fuzzy matching only compares keywords of a plausible length. */
  byLength: Map<number, { keywords: string[]; letters: Int32Array }>;
  /** Multi-word keywords and synonyms, which a sentence matches as one symbol. */
  phrases: Set<string>;
  longestPhrase: number;
  scores: Float64Array;
  matched: string[];
};

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

/** Which of a–z and 0–9 occur in a keyword, as bits (letters 26 and up share the top bits). */
function letterSet(keyword: string): number {
  let bits = 0;
  for (let i = 0; i < keyword.length; i++) {
    const c = keyword.charCodeAt(i);
    if (c >= 97 && c <= 122) bits |= 1 << (c - 97);
    else if (c >= 48 && c <= 57) bits |= 1 << (26 + ((c - 48) % 5));
    else bits |= 1 << 31;
  }
  return bits;
}

function popcount(bits: number): number {
  let n = bits - ((bits >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

const SOURCE_ORDER: Record<LocalSource, number> = { mulberry: 0, openmoji: 1, core: 2 };

export function buildSymbolIndex(records: LocalSymbolRecord[]): SymbolIndex {
  // Mulberry first (drawn for AAC), then OpenMoji, then the core words, each by id: the tiebreak between
  // symbols of equal score.
  const symbols = [...records].sort((a, b) => SOURCE_ORDER[a.source] - SOURCE_ORDER[b.source] || a.id - b.id);
  const exact = new Map<string, number[]>();
  const lemma = new Map<string, Array<{ symbol: number; keyword: string }>>();
  const synonyms = new Map<string, number[]>();
  const phrases = new Set<string>();
  symbols.forEach((s, i) => {
    for (const k of s.keywords) {
      push(exact, k, i);
      for (const form of lemmaForms(k)) push(lemma, form, { symbol: i, keyword: k });
      if (k.includes(" ")) phrases.add(k);
    }
    for (const k of s.synonyms) {
      push(synonyms, k, i);
      if (k.includes(" ")) phrases.add(k);
    }
  });
  const sorted = [...exact.keys()].sort();
  const grouped = new Map<number, string[]>();
  for (const k of sorted) push(grouped, k.length, k);
  const byLength = new Map(
    [...grouped].map(([len, keywords]) => [len, { keywords, letters: Int32Array.from(keywords, letterSet) }]),
  );
  const bases = symbols.map((s): Base => {
    const licence = LOCAL_LICENCES[s.source];
    const fields = {
      id: s.id,
      word: s.name,
      keywords: [...s.keywords, ...s.synonyms],
      icon_url: s.path,
      url: s.path,
      source: s.source,
      license: licence.license,
      author: s.author,
      attribution: licence.attribution(s.author),
    };
    return { ...fields, json: JSON.stringify(fields).slice(1, -1) };
  });
  const longestPhrase = Math.max(1, ...[...phrases].map((p) => p.split(" ").length));
  return {
    symbols,
    bases,
    exact,
    lemma,
    synonyms,
    sorted,
    byLength,
    phrases,
    longestPhrase,
    scores: new Float64Array(symbols.length),
    matched: new Array<string>(symbols.length),
  };
}

let shared: SymbolIndex | undefined;

/** The index over the shipped symbols, built on first use and kept for the life of the process. */
export function symbolIndex(): SymbolIndex {
  shared ??= buildSymbolIndex(readLocalSymbols());
  return shared;
}

export type RankOptions = {
  /** Only symbols from these sets (default: all). */
  sets?: readonly LocalSource[];
  /**
   * "word": exact, lemma and synonym tiers only — what a sentence uses, where "a" must not
   * prefix-match "apple" nor "cat" fuzzy-match "car".
   */
  tiers?: "all" | "word";
  /** How many of the best matches to return (default: all); `total` still counts every match. */
  limit?: number;
};

export type Ranked = { symbol: number; keyword: string; score: number };

type Analysis = { key: string; forms: string[] };
const analysed = new Map<string, Analysis>();
const MAX_ANALYSED = 5_000;

/**
 * A query's normalised key and lemma forms, remembered (boards ask for the same words again and
 * again; the lemmatiser is a third of a search). Bounded: the memo starts over when full.
 */
function analyse(query: string): Analysis {
  let analysis = analysed.get(query);
  if (!analysis) {
    if (analysed.size >= MAX_ANALYSED) analysed.clear();
    const key = normaliseKeyword(query);
    analysis = { key, forms: key ? lemmaForms(key) : [] };
    analysed.set(query, analysis);
  }
  return analysis;
}

/**
 * Every local symbol the query matches, best first (score, then the index's stable order). Runs
 * synchronously over a scratch score array owned by the index, so no per-query maps are built.
 */
export function rankSymbols(
  index: SymbolIndex,
  query: string,
  options: RankOptions = {},
): { hits: Ranked[]; total: number } {
  const { key, forms } = analyse(query);
  if (!key) return { hits: [], total: 0 };
  const { scores, matched, symbols } = index;
  const sets = options.sets && options.sets.length < 2 ? new Set(options.sets) : null;
  const touched: number[] = [];
  const offer = (symbol: number, keyword: string, score: number) => {
    if (sets && !sets.has(symbols[symbol]!.source)) return;
    const current = scores[symbol]!;
    if (current === 0) touched.push(symbol);
    if (score > current) {
      scores[symbol] = score;
      matched[symbol] = keyword;
    }
  };
  for (const s of index.exact.get(key) ?? []) offer(s, key, SCORES.exact);
  for (const form of [key, ...forms]) {
    if (form !== key) for (const s of index.exact.get(form) ?? []) offer(s, form, SCORES.lemma);
    for (const hit of index.lemma.get(form) ?? [])
      if (hit.keyword !== key) offer(hit.symbol, hit.keyword, SCORES.lemma);
  }
  for (const form of [key, ...forms]) for (const s of index.synonyms.get(form) ?? []) offer(s, form, SCORES.synonym);
  if (options.tiers !== "word") {
    if (key.length >= MIN_PREFIX_LENGTH) {
      for (let i = firstAtLeast(index.sorted, key); i < index.sorted.length; i++) {
        const k = index.sorted[i]!;
        if (!k.startsWith(key)) break;
        if (k === key) continue;
        const score = prefixScore(key, k);
        for (const s of index.exact.get(k)!) offer(s, k, score);
      }
    }
    // Fuzzy only when nothing else matched (a likely typo), and only over keywords whose length
    // is within the allowed edits and whose letters differ from the query's by at most two per edit.
    if (touched.length === 0 && key.length >= MIN_FUZZY_LENGTH) {
      const limit = maxEdits(key.length);
      const letters = letterSet(key);
      for (let len = key.length - limit; len <= key.length + limit; len++) {
        const bucket = index.byLength.get(len);
        if (!bucket) continue;
        for (let i = 0; i < bucket.keywords.length; i++) {
          if (popcount(bucket.letters[i]! ^ letters) > 2 * limit) continue;
          const k = bucket.keywords[i]!;
          const edits = distance(key, k);
          if (edits <= limit) for (const s of index.exact.get(k)!) offer(s, k, fuzzyScore(edits));
        }
      }
    }
  }
  const limit = options.limit ?? touched.length;
  const top = topByScore(touched, scores, limit);
  const hits = top.map((symbol) => ({ symbol, keyword: matched[symbol]!, score: scores[symbol]! }));
  for (const s of touched) scores[s] = 0;
  return { hits, total: touched.length };
}

/**
 * The best `limit` symbols by score, then by number, without sorting them all: a query such as
 * "face" touches hundreds of symbols but only the first page is shown.
 */
function topByScore(touched: number[], scores: Float64Array, limit: number): number[] {
  const top: number[] = [];
  const before = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && a < b);
  if (limit <= 0) return top;
  for (const s of touched) {
    if (top.length === limit) {
      if (!before(s, top[limit - 1]!)) continue;
      top.pop();
    }
    let i = top.length;
    while (i > 0 && before(s, top[i - 1]!)) i--;
    top.splice(i, 0, s);
  }
  return top;
}

/** A ranked match as the API returns it. */
export function toResult(index: SymbolIndex, hit: Ranked): AacSymbol {
  const b = index.bases[hit.symbol]!;
  return {
    id: b.id,
    word: b.word,
    keyword: hit.keyword,
    keywords: b.keywords,
    icon_url: b.icon_url,
    url: b.url,
    source: b.source,
    license: b.license,
    score: hit.score,
    author: b.author,
    attribution: b.attribution,
  };
}

/**
 * A page of results as a JSON array text. Serialising ~5 KB of results with JSON.stringify costs
 * several times the search itself (measured ~50 µs against ~15 µs), so each symbol's fixed fields
 * are serialised once and a page is a few string joins; the shape is AacSymbol's.
 */
export function resultsJson(index: SymbolIndex, hits: Ranked[]): string {
  return `[${hits.map((h) => `{${index.bases[h.symbol]!.json},"keyword":${JSON.stringify(h.keyword)},"score":${h.score}}`).join(",")}]`;
}

export type SymbolSearch = { results: AacSymbol[]; total: number };

/**
 * Searches the local symbols: the function the API calls and the benchmark times.
 * `searchSymbols("dogs", { limit: 5 })` → Mulberry and OpenMoji "dog" at 0.9, then related symbols.
 */
export function searchSymbols(query: string, options: RankOptions = {}): SymbolSearch {
  const index = symbolIndex();
  const { hits, total } = rankSymbols(index, query, { ...options, limit: options.limit ?? 10 });
  return { results: hits.map((hit) => toResult(index, hit)), total };
}

/** searchSymbols with the page already serialised (see resultsJson): what the HTTP routes send. */
export function searchSymbolsJson(query: string, options: RankOptions = {}): { json: string; total: number } {
  const index = symbolIndex();
  const { hits, total } = rankSymbols(index, query, { ...options, limit: options.limit ?? 10 });
  return { json: resultsJson(index, hits), total };
}
