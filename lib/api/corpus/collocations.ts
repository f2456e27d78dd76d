import { wordFrequency, wordId, type CorpusIndex } from "./inverted-index.ts";
import { expandPattern, findMatches, parseQuery, type Matches } from "./query.ts";

export const POSITIONS = ["all", "left", "right"] as const;
export type Position = (typeof POSITIONS)[number];

export type Collocate = { word: string; frequency: number; mi: number; t_score: number };

export type CollocationOptions = {
  window: number;
  position: Position;
  minFreq: number;
  limit: number;
  exclude: number[];
};

/**
 * Words that occur near a node more often than chance. For a collocate c seen O times in the windows
 * around the node's f(n) occurrences, in a corpus of N tokens, with S window slots per occurrence
 * (the window once for left or right, twice for all):
 *   expected E = f(n) · f(c) · S / N,   MI = log2(O / E),   t-score = (O − E) / √O.
 * Windows stop at the edge of the node's document. `matches` must hold every match, ascending.
 */
export function computeCollocations(
  index: CorpusIndex,
  matches: Matches,
  options: CollocationOptions,
): { collocates: Collocate[]; candidates: number } {
  const { tokens, docStarts } = index;
  const observed = new Uint32Array(index.vocabulary.length);
  const left = options.position !== "right";
  const right = options.position !== "left";
  let d = 0;
  for (const s of matches.starts) {
    while (docStarts[d + 1]! <= s) d++;
    const e = s + matches.span - 1;
    if (left) for (let p = Math.max(docStarts[d]!, s - options.window); p < s; p++) observed[tokens[p]!]!++;
    if (right)
      for (let p = e + 1, last = Math.min(docStarts[d + 1]! - 1, e + options.window); p <= last; p++)
        observed[tokens[p]!]!++;
  }
  for (const id of options.exclude) observed[id] = 0;

  const n = tokens.length;
  const slots = options.window * (left && right ? 2 : 1);
  const nodeFrequency = matches.total;
  const collocates: Collocate[] = [];
  for (let id = 0; id < observed.length; id++) {
    const o = observed[id]!;
    if (o === 0 || o < options.minFreq) continue;
    const expected = (nodeFrequency * wordFrequency(index, id) * slots) / n;
    collocates.push({
      word: index.vocabulary[id]!,
      frequency: o,
      mi: round(Math.log2(o / expected)),
      t_score: round((o - expected) / Math.sqrt(o)),
    });
  }
  collocates.sort((a, b) => b.mi - a.mi || b.frequency - a.frequency || (a.word < b.word ? -1 : 1));
  return { collocates: collocates.slice(0, options.limit), candidates: collocates.length };
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * Collocates of a word (or a wildcard or phrase, as in search). A one-word node is not its own
 * collocate; every match of the node counts, not only the first page.
 */
export function collocationsOf(index: CorpusIndex, word: string, options: Omit<CollocationOptions, "exclude">) {
  const terms = parseQuery(word);
  const matches = findMatches(index, terms);
  const node = terms.length === 1 ? terms[0]! : null;
  const exclude =
    node?.kind === "word"
      ? [wordId(index, node.word)].filter((id) => id >= 0)
      : node?.kind === "pattern"
        ? expandPattern(index, node.pattern)
        : [];
  const { collocates, candidates } = computeCollocations(index, matches, { ...options, exclude });
  return { node_frequency: matches.total, candidates, collocates };
}
