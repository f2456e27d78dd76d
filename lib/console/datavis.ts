import type { Schemas } from "../client/index.ts";

/**
 * A visualization of GET /v1/datavis/list (lib/client's generated type) as the helpers below read it:
 * any category, the dataset optional, so they work on any chart's fields.
 */
export type Visualization = Omit<Schemas["Visualization"], "category" | "dataset"> & {
  category: string;
  dataset?: string;
};

type DataRef = { url?: unknown; values?: unknown; format?: { type?: unknown; property?: unknown } };

/** Where a spec's rows come from: a /v1 URL to fetch with the session, inline values, or neither (generated data). */
export function dataSource(
  spec: Record<string, unknown>,
): { url: string; property: string | null } | { values: unknown[] } | null {
  const data = spec.data as DataRef | undefined;
  if (!data) return null;
  if (Array.isArray(data.values)) return { values: data.values };
  if (typeof data.url !== "string") return null;
  return { url: data.url, property: typeof data.format?.property === "string" ? data.format.property : null };
}

/** The rows a response holds: the `format.property` path (dot-separated, as Vega reads it), or the body itself. */
export function rowsOf(body: unknown, property: string | null): Record<string, unknown>[] {
  let value = body;
  for (const key of property ? property.split(".") : []) value = (value as Record<string, unknown> | null)?.[key];
  return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
}

/** Composite views (facets, concatenations, repeats): Vega-Lite cannot fit these to a container's width. */
const COMPOSITE = ["facet", "concat", "hconcat", "vconcat", "repeat"];

/**
 * The spec sized to the panel it is drawn in: a single view (a mark or layers) takes the container's
 * width whatever fixed width the gallery gave it (400 px, wider than a phone), and fits its axes and
 * legend inside. Composite views keep their own sizes and scroll inside the chart's box.
 */
export function fitToPanel(spec: Record<string, unknown>): Record<string, unknown> {
  if (COMPOSITE.some((k) => k in spec)) return spec;
  return { ...spec, width: "container", autosize: { type: "fit", contains: "padding" } };
}

/** The spec with its rows inlined, so the chart and the data table share one fetch (made with the session). */
export function withValues(spec: Record<string, unknown>, rows: unknown[]): Record<string, unknown> {
  return fitToPanel({ ...spec, data: { values: rows } });
}

/** Words a visualization is found by: its title, name, description, category and dataset. */
function searchText(v: Visualization): string {
  return [v.title, v.name, v.description, v.category, v.dataset ?? ""].join(" ").toLowerCase();
}

/**
 * The visualizations in `category` (all when empty) whose text holds every word of `query`, in list
 * order: "rain city" finds "Rain by city", whatever the case or word order.
 */
export function filterVisualizations(list: Visualization[], category: string, query: string): Visualization[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return list.filter((v) => (!category || v.category === category) && words.every((w) => searchText(v).includes(w)));
}

/** The columns of a table of rows: the union of their keys, in first-seen order. */
export function columnsOf(rows: Record<string, unknown>[], sample = 200): string[] {
  const seen = new Set<string>();
  for (const row of rows.slice(0, sample)) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}
