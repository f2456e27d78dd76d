import fs from "node:fs";
import path from "node:path";
import { LRUCache } from "lru-cache";
import Papa from "papaparse";
import { TROVE_DIR, type DatasetEntry } from "./catalogue.ts";

export type Row = Record<string, unknown>;

// Parsed rows take a few times their file size in memory: keep only recently used datasets, up to
// 20 MB of source files, so the largest ones do not stay resident in the shared process forever.
const parsed = new LRUCache<string, Row[]>({ maxSize: 20 * 1024 * 1024, sizeCalculation: (_rows, key) => Number(key.split("\u0000")[1]) || 1 });

/** Parses a dataset file's text: JSON arrays as they are, CSV with a header row and typed values. */
export function parseDatasetText(text: string, format: DatasetEntry["format"]): Row[] {
  if (format === "json") {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) throw new Error("trove JSON datasets are arrays of records");
    return value as Row[];
  }
  return Papa.parse<Row>(text.trim(), { header: true, dynamicTyping: true, skipEmptyLines: true }).data;
}

/** All rows of a dataset, parsed on first use and kept while recently used. */
export function datasetRows(entry: DatasetEntry): Row[] {
  const key = `${entry.file}\u0000${entry.size}`;
  let rows = parsed.get(key);
  if (!rows) {
    rows = parseDatasetText(fs.readFileSync(/*turbopackIgnore: true*/ path.join(TROVE_DIR, entry.file), "utf8"), entry.format);
    parsed.set(key, rows);
  }
  return rows;
}

/** One page of rows: `limit` rows starting at `offset`, with the total they were taken from. */
export function pageRows<T>(rows: T[], limit: number, offset: number): { total: number; data: T[] } {
  return { total: rows.length, data: rows.slice(offset, offset + limit) };
}
