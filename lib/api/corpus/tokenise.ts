/**
 * Word tokens as the shipped corpus lists count them (data/SOURCE.md): runs of letters (with their
 * combining marks), an apostrophe between letters joining the parts ("don't", "o'er" stay one word).
 * Digits and punctuation are not words, so the reported token counts agree with documents.json.
 */
const WORD = /[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu;

/** One word of a text: where it is (UTF-16 offsets into the text) and its folded form. */
export type Token = { start: number; end: number; norm: string };

/** The form a word is indexed and searched under: lower case, NFC, one apostrophe. */
export function normaliseWord(word: string): string {
  return word.normalize("NFC").toLowerCase().replace(/’/g, "'");
}

export function tokenise(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    tokens.push({ start: m.index, end: m.index + m[0].length, norm: normaliseWord(m[0]) });
  }
  return tokens;
}
