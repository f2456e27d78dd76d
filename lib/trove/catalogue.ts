import fs from "node:fs";
import path from "node:path";
import { GatewayError } from "../errors.ts";

/** Where the shipped datasets live (written by scripts/build-trove.mjs). */
export const TROVE_DIR = path.join(process.cwd(), "lib", "trove", "data");

export type DatasetField = { name: string; type: "number" | "string" | "boolean" };

/** One catalogue entry: what the dataset is, where it came from, and its file under data/. */
export type DatasetEntry = {
  id: string;
  category: string;
  title: string;
  description: string;
  format: "csv" | "json";
  /** Path relative to data/, as the build script wrote it; never built from a request. */
  file: string;
  size: number;
  rows: number;
  fields: DatasetField[];
  licence: string;
  source: { package: string; url: string; file?: string };
};

export type TroveIndex = {
  name: string;
  description: string;
  total_categories: number;
  total_datasets: number;
  categories: Record<string, { dataset_count: number; datasets: string[]; path: string }>;
  usage: string;
};

let loaded: { entries: DatasetEntry[]; byCategory: Map<string, DatasetEntry[]> } | undefined;

/** The catalogue, read once on first use and grouped by category in file order. */
export function troveCatalogue(): { entries: DatasetEntry[]; byCategory: Map<string, DatasetEntry[]> } {
  if (!loaded) {
    const entries = JSON.parse(
      fs.readFileSync(/*turbopackIgnore: true*/ path.join(TROVE_DIR, "catalogue.json"), "utf8"),
    ) as DatasetEntry[];
    const byCategory = new Map<string, DatasetEntry[]>();
    for (const entry of entries) byCategory.set(entry.category, [...(byCategory.get(entry.category) ?? []), entry]);
    loaded = { entries, byCategory };
  }
  return loaded;
}

export function buildTroveIndex(): TroveIndex {
  const { entries, byCategory } = troveCatalogue();
  const categories: TroveIndex["categories"] = {};
  for (const [name, datasets] of byCategory) {
    categories[name] = {
      dataset_count: datasets.length,
      datasets: datasets.map((d) => d.id),
      path: `/v1/trove/${name}`,
    };
  }
  return {
    name: "Data Trove",
    description:
      "Open datasets shipped with the gateway (vega-datasets, CIA World Factbook, world-countries, stdlib datasets and more), each with its licence and source, served as JSON rows.",
    total_categories: byCategory.size,
    total_datasets: entries.length,
    categories,
    usage:
      "GET /v1/trove/{category} lists a category's datasets; GET /v1/trove/{category}/{dataset}?limit=100&offset=0 returns rows as JSON (CSV files are converted). No key is needed.",
  };
}

/** A category's datasets; 404 for a category the catalogue does not have. */
export function listCategory(category: string): DatasetEntry[] {
  const datasets = troveCatalogue().byCategory.get(category);
  if (!datasets) throw new GatewayError(404, `unknown trove category '${category}'`);
  return datasets;
}

/** A dataset by category and id, matched against the catalogue only (names never reach the file system). */
export function findDataset(category: string, id: string): DatasetEntry {
  const entry = listCategory(category).find((d) => d.id === id);
  if (!entry) throw new GatewayError(404, `unknown trove dataset '${id}' in category '${category}'`);
  return entry;
}
