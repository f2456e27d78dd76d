/**
 * The one spelling every keyword and query is compared in: lower case, accents dropped, curly
 * apostrophes straightened, every other non-alphanumeric run turned into one space. "Man: Red-Hair"
 * and "man red hair" are the same key.
 */
export function normaliseKeyword(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/[^a-z0-9']+/g, " ")
    .replace(/(^|\s)'+|'+(?=\s|$)/g, "$1")
    .trim()
    .replace(/\s+/g, " ");
}

/** A sentence as lower-cased words ("Don't stop!" → ["don't", "stop"]); punctuation never makes a word. */
export function tokenise(sentence: string): string[] {
  const normal = normaliseKeyword(sentence);
  return normal ? normal.split(" ") : [];
}
