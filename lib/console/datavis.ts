import { z } from "zod";

/** GET /v1/datavis/list as the console uses it; unknown fields pass through untouched. */
export const Visualization = z.object({
  name: z.string(),
  title: z.string(),
  category: z.string(),
  description: z.string().default(""),
  dataset: z.string().optional(),
  spec: z.record(z.string(), z.unknown()),
});
export type Visualization = z.infer<typeof Visualization>;

export const VisList = z.object({
  total: z.number(),
  visualizations: z.array(Visualization),
  by_category: z.record(z.string(), z.number()).default({}),
});
export type VisList = z.infer<typeof VisList>;

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

/** The spec with its rows inlined, so the chart and the data table share one fetch (made with the session). */
export function withValues(spec: Record<string, unknown>, rows: unknown[]): Record<string, unknown> {
  return {
    ...spec,
    data: { values: rows },
    width: spec.width ?? "container",
    autosize: spec.autosize ?? { type: "fit", contains: "padding" },
  };
}

/** The columns of a table of rows: the union of their keys, in first-seen order. */
export function columnsOf(rows: Record<string, unknown>[], sample = 200): string[] {
  const seen = new Set<string>();
  for (const row of rows.slice(0, sample)) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}
