import { lemmatizer } from "../../text/lemmatizer.ts";

export type HeadwordMatch = { word: string; matched: "exact" | "lemma" };

/** "  Water " → "water": the form headwords are indexed under. */
export function normaliseWord(input: string): string {
  return input.normalize("NFC").trim().toLowerCase().replace(/\s+/g, " ");
}

/**
 * The headword for what the caller typed: the word itself, else its lemma as a verb, noun or
 * adjective ("running" → run, "houses" → house, "happier" → happy), else null.
 */
export function findHeadword(input: string, has: (word: string) => boolean): HeadwordMatch | null {
  const word = normaliseWord(input);
  if (!word) return null;
  if (has(word)) return { word, matched: "exact" };
  const stripped = word.replace(/['’]s$/, "");
  const { verb, noun, adjective } = lemmatizer();
  for (const lemma of [stripped, verb(stripped), noun(stripped), adjective(stripped)]) {
    if (lemma !== word && has(lemma)) return { word: lemma, matched: "lemma" };
  }
  return null;
}
