import fs from "node:fs";
import path from "node:path";
import { LRUCache } from "lru-cache";
import Papa from "papaparse";
import { TROVE_DIR, type DatasetEntry } from "./catalogue.ts";

export type Row = Record<string, unknown>;

// Parsed rows take a few times their file size in memory: keep only recently used datasets, up to
// 20 MB of source files, so the largest ones do not stay resident in the shared process forever.
const parsed = new LRUCache<string, Row[]>({
  maxSize: 20 * 1024 * 1024,
  sizeCalculation: (_rows, key) => Number(key.split("\u0000")[1]) || 1,
});

// A decimal number as written by a person or a spreadsheet; a leading zero ("00501") marks a code.
const NUMBER = /^[-+]?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$|^[-+]?0?\.\d+([eE][-+]?\d+)?$/;
const BOOLEAN = /^(true|false)$/i;

/**
 * The type of a CSV column, decided over all its values: number (or boolean) only when every
 * non-empty value is one. Typing cell by cell turned codes into numbers: ZIP "00501" into 501,
 * OpenMoji hexcode "26E9" into 26000000000, the AFINN word "true" into a boolean.
 */
function columnType(values: string[]): "number" | "boolean" | "string" {
  const present = values.filter((v) => v !== "");
  if (present.length && present.every((v) => NUMBER.test(v))) return "number";
  if (present.length && present.every((v) => BOOLEAN.test(v))) return "boolean";
  return "string";
}

function typeCsv(records: Record<string, string>[], columns: string[]): Row[] {
  const types = new Map(columns.map((c) => [c, columnType(records.map((r) => r[c] ?? ""))]));
  return records.map((record) => {
    const row: Row = {};
    for (const [column, raw] of Object.entries(record)) {
      const type = types.get(column) ?? "string";
      row[column] =
        raw === "" ? null : type === "number" ? Number(raw) : type === "boolean" ? raw.toLowerCase() === "true" : raw;
    }
    return row;
  });
}

/** Parses a dataset file's text: JSON arrays as they are, CSV with a header row and each column typed. */
export function parseDatasetText(text: string, format: DatasetEntry["format"]): Row[] {
  if (format === "json") {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) throw new Error("trove JSON datasets are arrays of records");
    return value as Row[];
  }
  const parsed = Papa.parse<Record<string, string>>(text.trim(), { header: true, skipEmptyLines: true });
  return typeCsv(parsed.data, parsed.meta.fields ?? []);
}

/** All rows of a dataset, parsed on first use and kept while recently used. */
export function datasetRows(entry: DatasetEntry): Row[] {
  const key = `${entry.file}\u0000${entry.size}`;
  let rows = parsed.get(key);
  if (!rows) {
    rows = parseDatasetText(
      fs.readFileSync(/*turbopackIgnore: true*/ path.join(TROVE_DIR, entry.file), "utf8"),
      entry.format,
    );
    parsed.set(key, rows);
  }
  return rows;
}

/** One page of rows: `limit` rows starting at `offset`, with the total they were taken from. */
export function pageRows<T>(rows: T[], limit: number, offset: number): { total: number; data: T[] } {
  return { total: rows.length, data: rows.slice(offset, offset + limit) };
}
