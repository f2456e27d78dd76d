import { concurrencyLimit } from "../../concurrency-limit.ts";
import { GatewayError } from "../../errors.ts";
import { normaliseKeyword, tokenise } from "./normalise.ts";
import { lemmaForms, SCORES } from "./ranking.ts";
import { rankSymbols, toResult, type AacSymbol, type SymbolIndex } from "./search.ts";

/** Where symbols come from, as requests name them ("pictolib" is accepted for arasaac). */
export const SYMBOL_SOURCES = ["local", "arasaac"] as const;
export type SymbolSource = (typeof SYMBOL_SOURCES)[number];

/** "local,pictolib" or ["local", "arasaac"] → ["local", "arasaac"]; unknown names are a 400. */
export function parseSources(value: string | string[] | undefined, fallback: SymbolSource): SymbolSource[] {
  const names = (Array.isArray(value) ? value : (value ?? "").split(","))
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) return [fallback];
  const chosen = new Set<SymbolSource>();
  for (const name of names) {
    const source = name === "pictolib" ? "arasaac" : name;
    if (!(SYMBOL_SOURCES as readonly string[]).includes(source))
      throw new GatewayError(400, `unknown source '${name}'; use local, arasaac or pictolib`);
    chosen.add(source as SymbolSource);
  }
  return SYMBOL_SOURCES.filter((s) => chosen.has(s));
}

/** Symbols shown per word, from each source. */
export const SYMBOLS_PER_WORD = 3;
/** Words a sentence may have: each may cost one upstream lookup. */
export const MAX_SENTENCE_WORDS = 60;
/** Upstream lookups one sentence runs at a time, so a long sentence does not burst ARASAAC. */
const UPSTREAM_CONCURRENCY = 6;

/**
 * Splits tokens into the words and phrases a board shows: at each position the longest run of
 * tokens that is a known phrase wins ("thank you", "ice cream"), otherwise the single token.
 */
export function segmentSentence(tokens: string[], isPhrase: (phrase: string) => boolean, longest: number): string[] {
  const segments: string[] = [];
  for (let i = 0; i < tokens.length;) {
    let taken = 1;
    for (let len = Math.min(longest, tokens.length - i); len >= 2; len--) {
      if (isPhrase(tokens.slice(i, i + len).join(" "))) {
        taken = len;
        break;
      }
    }
    segments.push(tokens.slice(i, i + taken).join(" "));
    i += taken;
  }
  return segments;
}

/** A phrase of the local index, as written or by its lemma ("ice creams" → "ice cream"), accents aside. */
export function phraseMatcher(index: SymbolIndex): (phrase: string) => boolean {
  return (phrase) => {
    const key = normaliseKeyword(phrase);
    return index.phrases.has(key) || lemmaForms(key).some((form) => index.phrases.has(form));
  };
}

export type SentenceWord = { word: string; matched: boolean; symbols: AacSymbol[] };
export type SentenceResult = {
  sentence: string;
  sources: SymbolSource[];
  language: string;
  words: SentenceWord[];
  statistics: { total_words: number; matched: number; unmatched: number; coverage: number };
};

export type SentenceLookups = {
  index: SymbolIndex;
  /** ARASAAC pictograms for a word, already ranked (only called when arasaac is a source). */
  arasaac(word: string): Promise<AacSymbol[]>;
};

/** Local symbols for one word or phrase: exact, lemma and synonym matches only. */
function localSymbols(index: SymbolIndex, word: string): AacSymbol[] {
  return rankSymbols(index, word, { tiers: "word", limit: SYMBOLS_PER_WORD }).hits.map((hit) => toResult(index, hit));
}

/**
 * Turns a sentence into symbols per word: tokenise, join known phrases greedily (longest first),
 * look every distinct word up once per source, and report coverage. A phrase no source has a
 * symbol for is shown word by word instead.
 */
export async function buildSentence(
  sentence: string,
  sources: SymbolSource[],
  language: string,
  lookups: SentenceLookups,
): Promise<SentenceResult> {
  const tokens = tokenise(sentence);
  if (tokens.length === 0) throw new GatewayError(400, "sentence has no words");
  if (tokens.length > MAX_SENTENCE_WORDS)
    throw new GatewayError(400, `sentence has ${tokens.length} words; at most ${MAX_SENTENCE_WORDS} are allowed`);
  const { index } = lookups;
  const segments = segmentSentence(tokens, phraseMatcher(index), index.longestPhrase);
  const upstream = new Map<string, Promise<AacSymbol[]>>();
  const limit = concurrencyLimit(UPSTREAM_CONCURRENCY);
  const arasaacFor = (word: string) => {
    let pending = upstream.get(word);
    if (!pending) {
      // Only whole-word matches (exact or lemma) make sense on a board; ARASAAC's text search is looser.
      pending = limit(() => lookups.arasaac(word)).then((all) =>
        all.filter((s) => s.score >= SCORES.lemma).slice(0, SYMBOLS_PER_WORD),
      );
      upstream.set(word, pending);
    }
    return pending;
  };
  const symbolsFor = async (word: string): Promise<AacSymbol[]> => {
    const local = sources.includes("local") ? localSymbols(index, word) : [];
    const remote = sources.includes("arasaac") ? await arasaacFor(word) : [];
    // Stable: local symbols first among equal scores.
    return [...local, ...remote].sort((a, b) => b.score - a.score);
  };
  const words = (
    await Promise.all(
      segments.map(async (segment): Promise<SentenceWord[]> => {
        const symbols = await symbolsFor(segment);
        if (symbols.length === 0 && segment.includes(" ")) {
          return Promise.all(
            segment.split(" ").map(async (word) => {
              const each = await symbolsFor(word);
              return { word, matched: each.length > 0, symbols: each };
            }),
          );
        }
        return [{ word: segment, matched: symbols.length > 0, symbols }];
      }),
    )
  ).flat();
  const matched = words.filter((w) => w.matched).length;
  return {
    sentence,
    sources,
    language,
    words,
    statistics: {
      total_words: words.length,
      matched,
      unmatched: words.length - matched,
      coverage: Math.round((matched / words.length) * 1000) / 10,
    },
  };
}
