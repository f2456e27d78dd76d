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

/**
 * Text as its reader spells it, lower-cased, for showing and for asking ARASAAC: punctuation runs
 * become one space, but letters keep their accents ("Camión!" → "camión"; ARASAAC's keywords carry
 * them). Only marks that do not compose into a letter are dropped: Arabic vowel signs, which
 * keywords leave out, and the dot that lower-casing "İ" leaves behind.
 */
export function lowerText(text: string): string {
  return text
    .normalize("NFC")
    .toLowerCase()
    .normalize("NFC")
    .replace(/\p{M}+/gu, "")
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, " ")
    .replace(/(^|\s)'+|'+(?=\s|$)/g, "$1")
    .trim()
    .replace(/\s+/g, " ");
}

/**
 * A sentence as lower-cased words ("Don't stop!" → ["don't", "stop"], "Él" → "él"); punctuation never
 * makes a word. Words keep their accents; matching compares them through normaliseKeyword.
 */
export function tokenise(sentence: string): string[] {
  return lowerText(sentence)
    .split(" ")
    .filter((word) => normaliseKeyword(word));
}
