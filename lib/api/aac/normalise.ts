/**
 * The one spelling every keyword and query is compared in: lower case, accents and other combining
 * marks dropped, curly apostrophes straightened, every other run of non-letters/digits turned into
 * one space. Letters of any script count ("Собака" → "собака"), since ARASAAC answers in 30+ locales.
 * "Man: Red-Hair" and "man red hair" are the same key.
 */
export function normaliseKeyword(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, " ")
    .replace(/(^|\s)'+|'+(?=\s|$)/g, "$1")
    .trim()
    .replace(/\s+/g, " ")
    .normalize("NFC");
}

/** A sentence as lower-cased words ("Don't stop!" → ["don't", "stop"]); punctuation never makes a word. */
export function tokenise(sentence: string): string[] {
  const normal = normaliseKeyword(sentence);
  return normal ? normal.split(" ") : [];
}
