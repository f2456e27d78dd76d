import { LRUCache } from "lru-cache";
import type { CorpusIndex } from "./inverted-index.ts";
import { buildKwicLines, type KwicLine } from "./kwic.ts";
import { findMatches, parseQuery, type Matches } from "./query.ts";

export const MAX_CONTEXT = 50;
export const MAX_LIMIT = 500;

// Phrases and wildcards walk whole posting lists (a few ms for "of the" over coca); the first
// MAX_LIMIT matches and the total are all any search can ask for, so those are kept per index.
const recent = new WeakMap<CorpusIndex, LRUCache<string, Matches>>();

function matchesFor(index: CorpusIndex, q: string): Matches {
  const terms = parseQuery(q);
  if (terms.length === 1 && terms[0]!.kind === "word") return findMatches(index, terms, MAX_LIMIT);
  let cache = recent.get(index);
  if (!cache) recent.set(index, (cache = new LRUCache<string, Matches>({ max: 1000 })));
  const key = JSON.stringify(terms);
  let matches = cache.get(key);
  if (!matches) cache.set(key, (matches = findMatches(index, terms, MAX_LIMIT)));
  return matches;
}

/**
 * A concordance: the first `limit` matches of `q` (words, `*` wildcards, phrases) in corpus order as
 * KWIC lines with `context` words each side, and the number of all matches.
 */
export function searchCorpus(
  index: CorpusIndex,
  q: string,
  options: { context: number; limit: number },
): { results: KwicLine[]; total: number } {
  const matches = matchesFor(index, q);
  const page = { ...matches, starts: matches.starts.subarray(0, options.limit) };
  return { results: buildKwicLines(index, page, options.context), total: matches.total };
}
