import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { GatewayError } from "../../errors.ts";
import type { LanguageLegend } from "./languages.ts";
import { parseEtymology, type EtymologyRecord } from "./lineage.ts";

const DATA_DIR = path.join(process.cwd(), "lib", "api", "etymology", "data");
export const DEFAULT_DATA_PATH = path.join(DATA_DIR, "etymology.json.gz");
export const LEGEND_PATH = path.join(DATA_DIR, "language_legend.json");
// A failed load is retried at most this often, so a fixed file comes back without a restart but a
// broken one is not re-read on every request.
const RETRY_AFTER_MS = 60_000;

/** The loaded data set: records in frequency order (index = rank) and the indexes built over them. */
export type EtymologyStore = {
  records: EtymologyRecord[];
  legend: LanguageLegend;
  /** lower-case headword → rank. */
  byWord: Map<string, number>;
  /** Webster root number → ranks of headwords whose etymology carries that √ mark. */
  byRoot: Map<string, number[]>;
  /** lower-case English word → ranks of headwords whose etymology cites it ({Word} or "E. word"). */
  citedBy: Map<string, number[]>;
  /** `lang|form` (lower-case form) → ranks of headwords with that form in their lineage. */
  byAncestor: Map<string, number[]>;
};

export const ancestorKey = (lang: string, form: string) => `${lang}|${form.toLowerCase()}`;

function push(map: Map<string, number[]>, key: string, rank: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [rank]);
  else if (list.at(-1) !== rank) list.push(rank);
}

function isRecord(value: unknown): value is EtymologyRecord {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.word === "string" &&
    typeof r.headword === "string" &&
    Array.isArray(r.definitions) &&
    Array.isArray(r.pos) &&
    Array.isArray(r.lineage) &&
    Array.isArray(r.cognates)
  );
}

/** Builds the indexes over records already read; exported so tests can index a handful of records. */
export function indexRecords(records: EtymologyRecord[], legend: LanguageLegend): EtymologyStore {
  const store: EtymologyStore = {
    records,
    legend,
    byWord: new Map(),
    byRoot: new Map(),
    citedBy: new Map(),
    byAncestor: new Map(),
  };
  records.forEach((record, rank) => {
    // Homographs are merged upstream, so the first record of a word is the only one.
    if (!store.byWord.has(record.word)) store.byWord.set(record.word, rank);
    const parsed = parseEtymology(record, legend);
    for (const root of parsed.roots) push(store.byRoot, root, rank);
    for (const word of parsed.cites) push(store.citedBy, word, rank);
    for (const item of parsed.lineage) push(store.byAncestor, ancestorKey(item.lang, item.form), rank);
  });
  return store;
}

/** Reads and indexes the gzip JSON data file and the legend; throws an Error saying what is wrong. */
export function loadEtymologyStore(dataPath: string, legendPath = LEGEND_PATH): EtymologyStore {
  let records: unknown;
  let legend: unknown;
  try {
    records = JSON.parse(zlib.gunzipSync(fs.readFileSync(/*turbopackIgnore: true*/ dataPath)).toString("utf8"));
    legend = JSON.parse(fs.readFileSync(/*turbopackIgnore: true*/ legendPath, "utf8"));
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "file missing" : "file unreadable or corrupt";
    throw new Error(`etymology data could not be loaded (${reason})`, { cause: err });
  }
  if (!Array.isArray(records) || records.length === 0 || !records.every(isRecord)) {
    throw new Error("etymology data could not be loaded (not an array of headword records)");
  }
  if (typeof legend !== "object" || legend === null || Array.isArray(legend)) {
    throw new Error("etymology data could not be loaded (language legend is not an object)");
  }
  return indexRecords(records, legend as LanguageLegend);
}

/** ETYMOLOGY_DATA_PATH replaces the shipped data file (a mirror, a newer extract, or a test's broken file). */
export function etymologyDataPath(env: Record<string, string | undefined> = process.env): string {
  return env.ETYMOLOGY_DATA_PATH?.trim() || DEFAULT_DATA_PATH;
}

type Cached = { path: string; store: EtymologyStore } | { path: string; error: Error; at: number };
let cached: Cached | undefined;

/**
 * The store for the configured path, loaded once on first use and kept for the process. A load
 * failure is remembered (and retried after a minute) and surfaces as 502, the spec's "backend down".
 */
export function etymologyStore(): EtymologyStore {
  const dataPath = etymologyDataPath();
  const stale = !cached || cached.path !== dataPath || ("error" in cached && Date.now() - cached.at > RETRY_AFTER_MS);
  if (stale) {
    try {
      cached = { path: dataPath, store: loadEtymologyStore(dataPath) };
    } catch (err) {
      cached = { path: dataPath, error: err as Error, at: Date.now() };
    }
  }
  if ("error" in cached!) throw new GatewayError(502, cached.error.message);
  return cached!.store;
}
