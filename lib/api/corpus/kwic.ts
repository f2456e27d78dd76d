import { documentAt, type CorpusIndex } from "./inverted-index.ts";
import type { Matches } from "./query.ts";

/** One concordance line: the match as written, with `context` words of its document on each side. */
export type KwicLine = { left: string; word: string; right: string; source: string; document: string; year: number };

const decoder = new TextDecoder();

// Line breaks and the Old English caesura (three spaces) read as one space in a one-line concordance.
const flat = (bytes: Uint8Array) => decoder.decode(bytes).replace(/\s+/g, " ").trim();

/**
 * Cuts a line for each match from the original text. The left side runs from the start of the word
 * `context` tokens back to the start of the match, the right side from the end of the match to the end
 * of the word `context` tokens on, so punctuation in between is kept; neither crosses its document's edge.
 */
export function buildKwicLines(index: CorpusIndex, matches: Matches, context: number): KwicLine[] {
  const { starts, lengths, text } = index;
  const lines: KwicLine[] = [];
  for (const s of matches.starts) {
    const e = s + matches.span - 1;
    const d = documentAt(index, s);
    const docFirst = index.docStarts[d]!;
    const docLast = index.docStarts[d + 1]! - 1;
    const from = Math.max(docFirst, s - context);
    const to = Math.min(docLast, e + context);
    const matchEnd = starts[e]! + lengths[e]!;
    const doc = index.docs[d]!;
    lines.push({
      left: from < s ? flat(text.subarray(starts[from], starts[s])) : "",
      word: flat(text.subarray(starts[s], matchEnd)),
      right: to > e ? flat(text.subarray(matchEnd, starts[to]! + lengths[to]!)) : "",
      source: doc.title,
      document: doc.id,
      year: doc.year,
    });
  }
  return lines;
}
