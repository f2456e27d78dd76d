// `npx tsx scripts/build-aac-symbols.ts`: builds the local AAC symbol set the gateway searches.
//
// Inputs (all in the repository or in installed packages):
// - lib/api/aac/data/mulberry/: the Mulberry core-vocabulary subset (symbols.json, symbol-info.csv for
//   Mulberry's own symbol ids); its SVGs are already in public/aac/mulberry/.
// - node_modules/openmoji: data/openmoji.json and color/svg/<hexcode>.svg.
// - node_modules/emojibase-data (en tags) and node_modules/emojilib (keywords): extra keywords per emoji.
// - lib/api/aac/data/phrases.json: everyday AAC words/phrases given to chosen symbols.
// - lib/api/aac/data/core/symbols.json: core words drawn for this project; the SVGs are in public/aac/core/.
//
// Outputs:
// - public/aac/openmoji/<hexcode>.svg: the curated OpenMoji subset (no flags, no skin-tone variants,
//   no OpenMoji extras or components), plus the licence text; stale files are removed.
// - lib/api/aac/data/symbols.json: one compact record per symbol, which the gateway indexes lazily.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import Papa from "papaparse";
import { eng as STOPWORDS } from "stopword";
import { normaliseKeyword } from "../lib/api/aac/normalise.ts";
import type { LocalSymbolRecord } from "../lib/api/aac/symbols.ts";

const ROOT = process.cwd();
const DATA = path.join(ROOT, "lib/api/aac/data");
const PUBLIC = path.join(ROOT, "public/aac");
const MODULES = path.join(ROOT, "node_modules");
const EXCLUDED_GROUPS = new Set(["flags", "extras-openmoji", "extras-unicode", "component"]);
// OpenMoji has no numeric ids; its Unicode emoji order is stable, offset so it never meets a Mulberry id.
const OPENMOJI_ID_OFFSET = 100_000;
const CORE_ID_OFFSET = 200_000;
/**
 * Function words never match by relation: emoji keyword lists tag symbols with words such as "you",
 * "an" or "me" ("an" found ❣, "you" a face blowing a kiss), which put a wrong symbol on every board
 * sentence. A symbol that shows one of these words names it as a keyword (phrases.json, the core set).
 */
const FUNCTION_WORDS = new Set(
  (
    "i me my mine myself you your yours yourself he him his she her hers it its we us our ours they them their " +
    "a an the to of for and or but nor is am are was were be been being do does did this that these those " +
    "with at by from as if so than then"
  ).split(" "),
);
const MAX_PUBLIC_BYTES = 10 * 1024 * 1024;

type MulberryRow = {
  symbol: string;
  file: string;
  label: string;
  category: string;
  tags: string[];
  selected_for: string;
};
type OpenMojiRow = {
  emoji: string;
  hexcode: string;
  group: string;
  annotation: string;
  tags: string;
  openmoji_tags: string;
  openmoji_author: string;
  skintone: string;
  order: number;
};
type CoreRow = { n: number; file: string; name: string; keywords: string[] };
type Phrases = { phrases: Array<{ phrase: string; symbols: string[] }> };

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;
const stopwords = new Set(STOPWORDS);
const emojiKey = (emoji: string) => emoji.replace(/\uFE0F/g, "");

/** Keywords normalised, de-duplicated, without any already in `taken`; one-letter words only if digits. */
function cleanList(words: Iterable<string>, taken: Set<string>): string[] {
  const out: string[] = [];
  for (const word of words) {
    const key = normaliseKeyword(word.replace(/_/g, " "));
    // Emojilib slugs such as "dog2" are file names, not words anyone searches for.
    if (!key || taken.has(key) || (key.length < 2 && !/^\d$/.test(key)) || /^[a-z]+\d+$/.test(key)) continue;
    taken.add(key);
    out.push(key);
  }
  return out;
}

/** Related words, without function words (see FUNCTION_WORDS). */
function cleanSynonyms(words: Iterable<string>, taken: Set<string>): string[] {
  return cleanList(words, taken).filter((w) => !FUNCTION_WORDS.has(w));
}

/** The separate words of multi-word names ("brush teeth" → "brush", "teeth"), stopwords dropped. */
function componentWords(names: string[]): string[] {
  return names.flatMap((name) => (name.includes(" ") ? name.split(" ").filter((w) => !stopwords.has(w)) : []));
}

function mulberrySymbols(phrasesFor: (ref: string) => string[]): LocalSymbolRecord[] {
  const rows = readJson<MulberryRow[]>(path.join(DATA, "mulberry/symbols.json"));
  const csv = Papa.parse<Record<string, string>>(readFileSync(path.join(DATA, "mulberry/symbol-info.csv"), "utf8"), {
    header: true,
    skipEmptyLines: true,
  });
  const idOf = new Map(csv.data.map((r) => [r.symbol!, Number(r["symbol-id"])]));
  return rows.map((row) => {
    const id = idOf.get(row.symbol);
    if (!id || !Number.isInteger(id)) throw new Error(`no Mulberry id for ${row.symbol}`);
    const file = path.basename(row.file);
    if (!existsSync(path.join(PUBLIC, "mulberry", file))) throw new Error(`missing public/aac/mulberry/${file}`);
    // "core:happy" chose this symbol for that word (a keyword); "(nearest symbol)" only approximates it.
    const core = /^core:([^()]+?)( \(nearest symbol\))?$/.exec(row.selected_for);
    const taken = new Set<string>();
    const keywords = cleanList(
      [row.label, ...(core && !core[2] ? [core[1]!] : []), ...phrasesFor(`mulberry:${row.symbol}`)],
      taken,
    );
    const synonyms = cleanSynonyms([...(core?.[2] ? [core[1]!] : []), ...row.tags, ...componentWords(keywords)], taken);
    return {
      id,
      source: "mulberry",
      name: row.label,
      keywords,
      synonyms,
      path: `/aac/mulberry/${file}`,
      author: "Steve Lee",
      category: row.category,
    };
  });
}

function openMojiSymbols(phrasesFor: (ref: string) => string[]): LocalSymbolRecord[] {
  const rows = readJson<OpenMojiRow[]>(path.join(MODULES, "openmoji/data/openmoji.json"));
  const emojibase = readJson<Array<{ emoji: string; label: string; tags?: string[] }>>(
    path.join(MODULES, "emojibase-data/en/data.json"),
  );
  const emojilib = readJson<Record<string, string[]>>(path.join(MODULES, "emojilib/dist/emoji-en-US.json"));
  const baseByEmoji = new Map(emojibase.map((e) => [emojiKey(e.emoji), e]));
  const libByEmoji = new Map(Object.entries(emojilib).map(([emoji, words]) => [emojiKey(emoji), words]));
  return rows
    .filter((row) => !EXCLUDED_GROUPS.has(row.group) && !row.skintone)
    .map((row) => {
      const base = baseByEmoji.get(emojiKey(row.emoji));
      const taken = new Set<string>();
      const keywords = cleanList([row.annotation, ...phrasesFor(`openmoji:${row.hexcode}`)], taken);
      const synonyms = cleanSynonyms(
        [
          ...(base ? [base.label] : []),
          ...row.tags.split(","),
          ...row.openmoji_tags.split(","),
          ...(base?.tags ?? []),
          ...(libByEmoji.get(emojiKey(row.emoji)) ?? []),
          ...componentWords(keywords),
        ],
        taken,
      );
      return {
        id: OPENMOJI_ID_OFFSET + row.order,
        source: "openmoji" as const,
        name: row.annotation,
        keywords,
        synonyms,
        path: `/aac/openmoji/${row.hexcode}.svg`,
        author: row.openmoji_author || "OpenMoji",
        category: row.group,
      };
    });
}

/** The drawn core words. Their keywords are taken as written: "i" and "a" are one letter, which cleanList drops. */
function coreSymbols(): LocalSymbolRecord[] {
  return readJson<{ symbols: CoreRow[] }>(path.join(DATA, "core/symbols.json")).symbols.map((row) => {
    if (!existsSync(path.join(PUBLIC, "core", row.file))) throw new Error(`missing public/aac/core/${row.file}`);
    return {
      id: CORE_ID_OFFSET + row.n,
      source: "core" as const,
      name: row.name,
      keywords: row.keywords.map(normaliseKeyword),
      synonyms: [],
      path: `/aac/core/${row.file}`,
      author: "Unified API Gateway contributors",
      category: "core words",
    };
  });
}

function copyOpenMojiSvgs(symbols: LocalSymbolRecord[]): number {
  const dir = path.join(PUBLIC, "openmoji");
  mkdirSync(dir, { recursive: true });
  const wanted = new Set(symbols.map((s) => path.basename(s.path)));
  for (const file of readdirSync(dir)) if (file.endsWith(".svg") && !wanted.has(file)) rmSync(path.join(dir, file));
  let bytes = 0;
  for (const file of wanted) {
    const from = path.join(MODULES, "openmoji/color/svg", file);
    copyFileSync(from, path.join(dir, file));
    bytes += statSync(from).size;
  }
  copyFileSync(path.join(MODULES, "openmoji/LICENSE.txt"), path.join(dir, "LICENSE.txt"));
  return bytes;
}

function main() {
  const phrases = readJson<Phrases>(path.join(DATA, "phrases.json")).phrases;
  const byRef = new Map<string, string[]>();
  for (const { phrase, symbols } of phrases)
    for (const ref of symbols) byRef.set(ref, [...(byRef.get(ref) ?? []), phrase]);
  const used = new Set<string>();
  const phrasesFor = (ref: string) => {
    used.add(ref);
    return byRef.get(ref) ?? [];
  };
  const symbols = [...mulberrySymbols(phrasesFor), ...openMojiSymbols(phrasesFor), ...coreSymbols()];
  const unknown = [...byRef.keys()].filter((ref) => !used.has(ref));
  if (unknown.length) throw new Error(`phrases.json names symbols that are not in the set: ${unknown.join(", ")}`);
  const ids = new Set(symbols.map((s) => s.id));
  if (ids.size !== symbols.length) throw new Error("symbol ids are not unique");
  const bytes = copyOpenMojiSvgs(symbols.filter((s) => s.source === "openmoji"));
  if (bytes > MAX_PUBLIC_BYTES) throw new Error(`OpenMoji subset is ${bytes} bytes, over the 10 MB budget`);
  writeFileSync(path.join(DATA, "symbols.json"), `${JSON.stringify({ symbols })}\n`);
  const count = (source: string) => symbols.filter((s) => s.source === source).length;
  console.log(
    `${symbols.length} symbols (${count("mulberry")} Mulberry, ${count("openmoji")} OpenMoji, ${count("core")} core); OpenMoji SVGs ${(bytes / 1e6).toFixed(1)} MB`,
  );
}

main();
