import { GatewayError } from "../../gateway/errors.ts";
import { positionsOf, wordFrequency, wordId, type CorpusIndex } from "./inverted-index.ts";
import { normaliseWord, tokenise } from "./tokenise.ts";

/** One slot of a query: a word, a wildcard pattern over words ("lov*"), or any single word ("*"). */
export type QueryTerm = { kind: "word"; word: string } | { kind: "pattern"; pattern: string } | { kind: "any" };

export const MAX_QUERY_TERMS = 10;
/** A pattern expands to at most this many words, the most frequent first ("*e*" would otherwise be half the vocabulary). */
export const EXPANSION_CAP = 500;

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
      if (!PATTERN.test(raw)) throw new GatewayError(400, `wildcard term '${raw}' may hold only letters, apostrophes and *`);
      terms.push({ kind: "pattern", pattern: normaliseWord(raw).replace(/\*+/g, "*") });
    } else terms.push(...tokenise(raw).map((t) => ({ kind: "word" as const, word: t.norm })));
  }
  if (!terms.some((t) => t.kind !== "any")) throw new GatewayError(400, "the query needs at least one word (letters, optionally with * wildcards)");
  if (terms.length > MAX_QUERY_TERMS) throw new GatewayError(400, `a query may have at most ${MAX_QUERY_TERMS} words`);
  return terms;
}

/** The word ids a pattern matches, most frequent first, at most `cap` of them. */
export function expandPattern(index: CorpusIndex, pattern: string, cap = EXPANSION_CAP): number[] {
  const v = index.vocabulary;
  let ids: number[] = [];
  const star = pattern.indexOf("*");
  if (star === pattern.length - 1) {
    // A prefix: the vocabulary is sorted, so its words are one contiguous run.
    const prefix = pattern.slice(0, -1);
    for (let i = lowerBound(v, prefix); i < v.length && v[i]!.startsWith(prefix); i++) ids.push(i);
  } else {
    const re = new RegExp(`^${pattern.split("*").map(escapeRegExp).join(".*")}$`, "u");
    for (let i = 0; i < v.length; i++) if (re.test(v[i]!)) ids.push(i);
  }
  if (ids.length > cap) ids = ids.sort((a, b) => wordFrequency(index, b) - wordFrequency(index, a)).slice(0, cap);
  return ids;
}

function lowerBound(v: string[], s: string): number {
  let lo = 0;
  let hi = v.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v[mid]! < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
  // Per slot: the one id it needs (>= 0), any word (-1), or one of a set (-2, looked up in `sets`).
  const needs = new Int32Array(span);
  const sets: Array<Uint8Array | null> = resolved.map(() => null);
  resolved.forEach((ids, i) => {
    if (i === anchor || !ids) needs[i] = -1;
    else if (ids.length === 1) needs[i] = ids[0]!;
    else {
      needs[i] = -2;
      sets[i] = new Uint8Array(index.vocabulary.length);
      for (const id of ids) sets[i]![id] = 1;
    }
  });
  const anchorIds = resolved[anchor]!;
  const found = new Uint32Array(frequencyOf(anchorIds));
  let total = 0;
  const n = index.tokens.length;
  const tokens = index.tokens;
  const docStarts = index.docStarts;
  for (const id of anchorIds) {
    const positions = positionsOf(index, id);
    // Positions ascend, so the document boundary after the current one only moves forward.
    let nextDoc = 1;
    for (let k = 0; k < positions.length; k++) {
      const s = positions[k]! - anchor;
      if (s < 0 || s + span > n) continue;
      let ok = true;
      for (let i = 0; i < span; i++) {
        const need = needs[i]!;
        if (need === -1) continue;
        const t = tokens[s + i]!;
        if (need >= 0 ? t !== need : sets[i]![t] !== 1) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      while (docStarts[nextDoc]! <= s) nextDoc++;
      if (s + span <= docStarts[nextDoc]!) found[total++] = s;
    }
  }
  const all = found.subarray(0, total);
  if (anchorIds.length > 1) all.sort();
  return { starts: all.subarray(0, Math.min(total, limit)), total, span };
}

function singleTermMatches(index: CorpusIndex, ids: number[], limit: number): Matches {
  if (ids.length === 1) {
    const positions = positionsOf(index, ids[0]!);
    return { starts: positions.subarray(0, Math.min(positions.length, limit)), total: positions.length, span: 1 };
  }
  // The first `limit` of a union are among the first `limit` of each list.
  let total = 0;
  const heads: Uint32Array[] = [];
  for (const id of ids) {
    const positions = positionsOf(index, id);
    total += positions.length;
    heads.push(positions.subarray(0, Math.min(positions.length, limit)));
  }
  const merged = new Uint32Array(heads.reduce((sum, h) => sum + h.length, 0));
  let offset = 0;
  for (const h of heads) {
    merged.set(h, offset);
    offset += h.length;
  }
  merged.sort();
  return { starts: merged.subarray(0, Math.min(merged.length, limit)), total, span: 1 };
}
