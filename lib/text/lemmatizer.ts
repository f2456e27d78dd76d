import { createRequire } from "node:module";
import type Lemmatizer from "wink-lemmatizer";

const require = createRequire(import.meta.url);
let loaded: typeof Lemmatizer | undefined;

/**
 * wink-lemmatizer, loaded on its first use: its lexicon is ~45 MB of resident memory, which a server
 * that never looks a word up (etymology, AAC symbols, keywords) should not carry. Synchronous, since its
 * callers are; the package is CommonJS.
 */
export function lemmatizer(): typeof Lemmatizer {
  return (loaded ??= require("wink-lemmatizer") as typeof Lemmatizer);
}
