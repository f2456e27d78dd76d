import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import Papa from "papaparse";
import { buildLanguageIndex, type Language, type LanguageIndex } from "./glottolog.ts";
import { createPhonemeIndexBuilder, type InventoryRecord, type PhonemeIndex, type SegmentType } from "./phoible.ts";
import { buildWalsIndex, type WalsIndex, type WalsLanguage, type WalsParameterRecord } from "./wals.ts";

// Read at run time from the repository (not bundled): the files are megabytes and only needed once.
const DATA_DIR = path.join(process.cwd(), "lib", "api", "linguistics", "data");

async function readText(file: string): Promise<string> {
  const full = path.join(/*turbopackIgnore: true*/ DATA_DIR, file);
  const bytes = await fs.readFile(/*turbopackIgnore: true*/ full);
  return (file.endsWith(".gz") ? await promisify(gunzip)(bytes) : bytes).toString("utf8");
}

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readText(file)) as T;
}

/** Parses CSV text row by row, so only the caller's compact copy of each row is kept. */
function eachCsvRow(text: string, onRow: (cell: (column: string) => string) => void): void {
  let columns: Map<string, number> | null = null;
  Papa.parse<string[]>(text, {
    skipEmptyLines: true,
    step(result) {
      const cells = result.data;
      if (!columns) {
        columns = new Map(cells.map((name, i) => [name, i]));
        return;
      }
      const at = columns;
      onRow((column) => cells[at.get(column) ?? -1] ?? "");
    },
  });
}

const orNull = (s: string) => (s ? s : null);
const boolOrNull = (s: string) => (s === "true" ? true : s === "false" ? false : null);

export async function loadGlottolog(): Promise<LanguageIndex> {
  return buildLanguageIndex(await readJson<Language[]>("languages.json"));
}

export async function loadWals(): Promise<WalsIndex> {
  const [parameters, languages, values] = await Promise.all([
    readJson<WalsParameterRecord[]>("wals_parameters.json"),
    readJson<WalsLanguage[]>("wals_languages.json"),
    readText("wals_values.csv"),
  ]);
  const datapoints: [string, string, string][] = [];
  eachCsvRow(values, (cell) => datapoints.push([cell("wals_code"), cell("parameter_id"), cell("value_code")]));
  return buildWalsIndex(parameters, languages, datapoints);
}

export async function loadPhoible(): Promise<PhonemeIndex> {
  const [inventories, phonemes] = await Promise.all([
    readJson<(InventoryRecord & { segments?: string[] })[]>("phoible_inventories.json"),
    readText("phoible_phonemes.csv.gz"),
  ]);
  // The rows carry each inventory's segments; drop the duplicate list so it is not kept in memory.
  const builder = createPhonemeIndexBuilder(inventories.map(({ segments: _segments, ...inv }) => inv));
  eachCsvRow(phonemes, (cell) =>
    builder.add({
      inventory_id: Number(cell("inventory_id")),
      segment: cell("segment"),
      segment_class: cell("segment_class") as SegmentType,
      marginal: cell("marginal") === "true",
      manner: orNull(cell("manner")),
      place: orNull(cell("place")),
      voiced: boolOrNull(cell("voiced")),
      airstream: orNull(cell("airstream")),
      height: orNull(cell("height")),
      backness: orNull(cell("backness")),
      rounded: boolOrNull(cell("rounded")),
    }),
  );
  return builder.build();
}

/**
 * Each part is loaded on its first use and then kept: the promise is cached so concurrent first
 * requests share one load, and dropped on failure so a later request can retry.
 */
function lazily<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= load().catch((err: unknown) => {
      pending = null;
      throw err;
    });
    return pending;
  };
}

export const glottolog = lazily(loadGlottolog);
export const wals = lazily(loadWals);
export const phoible = lazily(loadPhoible);

export type Linguistics = { glottolog: LanguageIndex; wals: WalsIndex; phoible: PhonemeIndex };

export async function linguistics(): Promise<Linguistics> {
  const [g, w, p] = await Promise.all([glottolog(), wals(), phoible()]);
  return { glottolog: g, wals: w, phoible: p };
}
