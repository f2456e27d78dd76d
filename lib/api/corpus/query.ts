import { GatewayError } from "../../errors.ts";
import { firstAtLeast } from "../../text/sorted-strings.ts";
import { positionsOf, wordFrequency, wordId, type CorpusIndex } from "./inverted-index.ts";
import { normaliseWord, tokenise } from "./tokenise.ts";

/** One slot of a query: a word, a wildcard pattern over words ("lov*"), or any single word ("*"). */
export type QueryTerm = { kind: "word"; word: string } | { kind: "pattern"; pattern: string } | { kind: "any" };

export const MAX_QUERY_TERMS = 10;

const PATTERN = /^[\p{L}\p{M}'’*]+$/u;

/**
 * "ice cream" → two words, "the * of" → word, any, word, "lov*" → a pattern. Words are folded the way
 * the index folds them; a term the tokeniser splits ("ice-cream") becomes consecutive words.
 */
export function parseQuery(q: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  for (const raw of q.trim().split(/\s+/).filter(Boolean)) {
    if (/^\*+$/.test(raw)) terms.push({ kind: "any" });
    else if (raw.includes("*")) {
      if (!PATTERN.test(raw))
        throw new GatewayError(400, `wildcard term '${raw}' may hold only letters, apostrophes and *`);
      terms.push({ kind: "pattern", pattern: normaliseWord(raw).replace(/\*+/g, "*") });
    } else terms.push(...tokenise(raw).map((t) => ({ kind: "word" as const, word: t.norm })));
  }
  if (!terms.some((t) => t.kind !== "any"))
    throw new GatewayError(400, "the query needs at least one word (letters, optionally with * wildcards)");
  if (terms.length > MAX_QUERY_TERMS) throw new GatewayError(400, `a query may have at most ${MAX_QUERY_TERMS} words`);
  return terms;
}

/**
 * Every word id a pattern matches. Not capped: `total` must count every match, and what uses the ids
 * (a bitmap over the vocabulary, one scan of the token array) costs the same for 5 words or 50,000.
 */
export function expandPattern(index: CorpusIndex, pattern: string): number[] {
  const v = index.vocabulary;
  const ids: number[] = [];
  const star = pattern.indexOf("*");
  if (star === pattern.length - 1) {
    // A prefix: the vocabulary is sorted, so its words are one contiguous run.
    const prefix = pattern.slice(0, -1);
    for (let i = firstAtLeast(v, prefix); i < v.length && v[i]!.startsWith(prefix); i++) ids.push(i);
  } else {
    const re = new RegExp(`^${pattern.split("*").map(escapeRegExp).join(".*")}$`, "u");
    for (let i = 0; i < v.length; i++) if (re.test(v[i]!)) ids.push(i);
  }
  return ids;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A term resolved against one index: the ids it accepts, or null for "any word". */
type ResolvedTerm = number[] | null;

function resolve(index: CorpusIndex, term: QueryTerm): ResolvedTerm {
  if (term.kind === "any") return null;
  if (term.kind === "pattern") return expandPattern(index, term.pattern);
  const id = wordId(index, term.word);
  return id < 0 ? [] : [id];
}

/** Where a query matched: the first token of each match (ascending), how many matches in all, and the span length. */
export type Matches = { starts: Uint32Array; total: number; span: number };

/**
 * Finds a query's matches, returning at most `limit` of them (the first in corpus order) while `total`
 * counts all. A one-word query never walks its postings: the total is the posting length and only
 * the first `limit` positions are read. A phrase is anchored on its rarest term and checked word by
 * word from there, within one document.
 */
export function findMatches(index: CorpusIndex, terms: QueryTerm[], limit = Infinity): Matches {
  const resolved = terms.map((t) => resolve(index, t));
  const span = terms.length;
  if (span === 1) return singleTermMatches(index, resolved[0]!, limit);

  const frequencyOf = (ids: number[]) => ids.reduce((sum, id) => sum + wordFrequency(index, id), 0);
  let anchor = -1;
  for (let i = 0; i < span; i++) {
    const ids = resolved[i];
    if (ids && (anchor < 0 || frequencyOf(ids) < frequencyOf(resolved[anchor]!))) anchor = i;
  }
  const anchorIds = resolved[anchor]!;
  const n = index.tokens.length;
  // Candidates are match starts implied by the anchor's positions, narrowed one slot at a time by
  // tight loops over a reused buffer: much faster than checking every slot of every candidate in turn.
  const candidates = scratch(frequencyOf(anchorIds));
  let count = 0;
  const take = (p: number) => {
    const s = p - anchor;
    if (s >= 0 && s + span <= n) candidates[count++] = s;
  };
  // The document walk below needs ascending candidates: one word's postings already are; for a wildcard,
  // one pass over the tokens yields them in order (merging thousands of posting lists would not be cheaper).
  if (anchorIds.length === 1) for (const p of positionsOf(index, anchorIds[0]!)) take(p);
  else {
    const accepted = bitmapOf(index, anchorIds);
    const tokens = index.tokens;
    for (let p = 0; p < n; p++) if (accepted[tokens[p]!] === 1) take(p);
  }
  resolved.forEach((ids, i) => {
    if (i === anchor || !ids) return;
    count =
      ids.length === 1
        ? keepWhereEquals(index.tokens, candidates, count, i, ids[0]!)
        : keepWhereIn(index, candidates, count, i, ids);
  });
  count = keepWithinDocuments(index.docStarts, candidates, count, span);
  return { starts: candidates.slice(0, Math.min(count, limit)), total: count, span };
}

let buffer = new Uint32Array(0);
// One buffer for all phrase searches: searches run synchronously, and results are copied out of it.
function scratch(size: number): Uint32Array {
  if (buffer.length < size) buffer = new Uint32Array(Math.max(size, buffer.length * 2));
  return buffer;
}

function keepWhereEquals(tokens: Uint32Array, c: Uint32Array, count: number, offset: number, id: number): number {
  let kept = 0;
  for (let k = 0; k < count; k++) {
    const s = c[k]!;
    if (tokens[s + offset] === id) c[kept++] = s;
  }
  return kept;
}

function bitmapOf(index: CorpusIndex, ids: number[]): Uint8Array {
  const accepted = new Uint8Array(index.vocabulary.length);
  for (const id of ids) accepted[id] = 1;
  return accepted;
}

function keepWhereIn(index: CorpusIndex, c: Uint32Array, count: number, offset: number, ids: number[]): number {
  const accepted = bitmapOf(index, ids);
  const tokens = index.tokens;
  let kept = 0;
  for (let k = 0; k < count; k++) {
    const s = c[k]!;
    if (accepted[tokens[s + offset]!] === 1) c[kept++] = s;
  }
  return kept;
}

// Candidates ascend, so the next document boundary only moves forward.
function keepWithinDocuments(docStarts: Uint32Array, c: Uint32Array, count: number, span: number): number {
  let kept = 0;
  let next = 1;
  for (let k = 0; k < count; k++) {
    const s = c[k]!;
    while (docStarts[next]! <= s) next++;
    if (s + span <= docStarts[next]!) c[kept++] = s;
  }
  return kept;
}

function singleTermMatches(index: CorpusIndex, ids: number[], limit: number): Matches {
  if (ids.length === 1) {
    const positions = positionsOf(index, ids[0]!);
    return { starts: positions.subarray(0, Math.min(positions.length, limit)), total: positions.length, span: 1 };
  }
  // A wildcard: the total is the sum of its words' postings; the first `limit` come from a scan of the
  // tokens that stops as soon as it has them.
  const total = ids.reduce((sum, id) => sum + wordFrequency(index, id), 0);
  const starts = new Uint32Array(Math.min(total, limit));
  const accepted = bitmapOf(index, ids);
  const tokens = index.tokens;
  for (let p = 0, found = 0; found < starts.length; p++) if (accepted[tokens[p]!] === 1) starts[found++] = p;
  return { starts, total, span: 1 };
}
