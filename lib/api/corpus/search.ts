import type { CorpusIndex } from "./inverted-index.ts";
import { buildKwicLines, type KwicLine } from "./kwic.ts";
import { findMatches, parseQuery } from "./query.ts";

export const MAX_CONTEXT = 50;
export const MAX_LIMIT = 500;

/**
 * A concordance: the first `limit` matches of `q` (words, `*` wildcards, phrases) in corpus order as
 * KWIC lines with `context` words each side, and the number of all matches.
 */
export function searchCorpus(index: CorpusIndex, q: string, options: { context: number; limit: number }): { results: KwicLine[]; total: number } {
  const matches = findMatches(index, parseQuery(q), options.limit);
  return { results: buildKwicLines(index, matches, options.context), total: matches.total };
}
