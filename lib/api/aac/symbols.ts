import { readFileSync } from "node:fs";
import path from "node:path";

/** One local symbol as scripts/build-aac-symbols.ts writes it to data/symbols.json. */
export type LocalSymbolRecord = {
  id: number;
  source: LocalSource;
  /** The symbol's own name, as its set spells it. */
  name: string;
  /** Normalised names the symbol stands for (exact and lemma matches). */
  keywords: string[];
  /** Normalised related words (synonym matches): emoji keyword sets, Mulberry tags, words of a name. */
  synonyms: string[];
  /** Where the SVG is served from: public/ + path. */
  path: string;
  author: string;
  category: string;
};

export const LOCAL_SOURCES = ["mulberry", "openmoji", "core"] as const;
export type LocalSource = (typeof LOCAL_SOURCES)[number];

/** Licence and the attribution each set asks for (Mulberry's exactly as its SOURCE.md requires). */
export const LOCAL_LICENCES: Record<LocalSource, { license: string; attribution: (author: string) => string }> = {
  mulberry: {
    license: "CC BY-SA 4.0",
    attribution: () =>
      "Mulberry Symbols © 2018–2026 Steve Lee (https://mulberrysymbols.org), licensed under CC BY-SA 4.0.",
  },
  openmoji: {
    license: "CC BY-SA 4.0",
    attribution: (author) =>
      `Emoji designed by OpenMoji (https://openmoji.org/), ${author} – the open-source emoji and icon project. License: CC BY-SA 4.0.`,
  },
  // Drawn for this project (public/aac/core/SOURCE.md): dedicated to the public domain.
  core: {
    license: "CC0 1.0",
    attribution: () => "Core word symbol drawn for the Unified API Gateway, dedicated to the public domain (CC0 1.0).",
  },
};

// Read relative to the working directory (as lib/api/utils/citations.ts does): the same path works
// under tsx and under next build/start, where import.meta.url points into the bundle.
const SYMBOLS_FILE = path.join(process.cwd(), "lib", "api", "aac", "data", "symbols.json");

/** The shipped local symbol records, in file order (Mulberry, then OpenMoji by Unicode order, then the core words). */
export function readLocalSymbols(file = SYMBOLS_FILE): LocalSymbolRecord[] {
  return (JSON.parse(readFileSync(/*turbopackIgnore: true*/ file, "utf8")) as { symbols: LocalSymbolRecord[] }).symbols;
}
