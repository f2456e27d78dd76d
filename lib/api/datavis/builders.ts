/** A Vega-Lite spec as JSON: kept loose here, checked by compiling and rendering every one in tests. */
export type VegaLiteSpec = Record<string, unknown>;

export type Channel = Record<string, unknown>;

/** Every dataset can be fetched whole in one page (the trove's largest has 42,049 rows). */
const WHOLE_DATASET = 50_000;

/**
 * Where a spec reads its rows: the trove endpoint (relative, so it works from the portal and from any
 * client that resolves it against the gateway's origin), unwrapping the `data` array of the response.
 */
export function troveData(dataset: string): Record<string, unknown> {
  return { url: `/v1/trove/${dataset}?limit=${WHOLE_DATASET}`, format: { type: "json", property: "data" } };
}

export const q = (field: string, extra: Channel = {}): Channel => ({ field, type: "quantitative", ...extra });
export const n = (field: string, extra: Channel = {}): Channel => ({ field, type: "nominal", ...extra });
export const o = (field: string, extra: Channel = {}): Channel => ({ field, type: "ordinal", ...extra });
export const t = (field: string, extra: Channel = {}): Channel => ({ field, type: "temporal", ...extra });

/**
 * Horizontal bars of the `top` categories ranked by an aggregate of `value` (or by row count);
 * `before` are transforms (filters, calculations) applied to the rows first.
 */
export function topBars(
  category: string,
  value: string | null,
  op: "sum" | "mean" | "count",
  top: number,
  titles: { category: string; value: string },
  before: unknown[] = [],
): VegaLiteSpec {
  const measure =
    value === null || op === "count" ? { op: "count", as: "measure" } : { op, field: value, as: "measure" };
  return {
    transform: [
      ...before,
      { aggregate: [measure], groupby: [category] },
      { window: [{ op: "row_number", as: "rank" }], sort: [{ field: "measure", order: "descending" }] },
      { filter: `datum.rank <= ${top}` },
    ],
    mark: "bar",
    encoding: {
      y: n(category, { sort: "-x", title: titles.category }),
      x: q("measure", { title: titles.value }),
      tooltip: [n(category), q("measure", { title: titles.value, format: ",.2~f" })],
    },
  };
}

export function histogram(field: string, title: string, maxbins = 30, color?: Channel): VegaLiteSpec {
  return {
    mark: "bar",
    encoding: {
      x: q(field, { bin: { maxbins }, title }),
      y: { aggregate: "count", type: "quantitative", title: "Count" },
      ...(color ? { color } : {}),
    },
  };
}

export function boxplot(
  category: string,
  value: string,
  titles: { category: string; value: string },
  scale?: Channel,
): VegaLiteSpec {
  return {
    mark: { type: "boxplot", extent: 1.5 },
    encoding: {
      x: n(category, { title: titles.category }),
      y: q(value, { title: titles.value, ...(scale ? { scale } : {}) }),
      color: n(category, { legend: null }),
    },
  };
}

export function scatter(x: Channel, y: Channel, more: Channel = {}, transform: unknown[] = []): VegaLiteSpec {
  return {
    ...(transform.length ? { transform } : {}),
    mark: { type: "point", filled: true, opacity: 0.7 },
    encoding: { x, y, ...more },
  };
}

/** Points at longitude/latitude on a projection (no base map: the points draw the shape). */
export function pointMap(
  lon: string,
  lat: string,
  projection: string,
  more: Channel = {},
  mark: Record<string, unknown> = { type: "circle", size: 12, opacity: 0.6 },
  transform: unknown[] = [],
): VegaLiteSpec {
  return {
    ...(transform.length ? { transform } : {}),
    projection: { type: projection },
    mark,
    encoding: { longitude: q(lon), latitude: q(lat), ...more },
  };
}

/** A scatter with a fitted line (regression or loess) drawn over it. */
export function scatterWithFit(
  x: string,
  y: string,
  titles: { x: string; y: string },
  method: "regression" | "loess",
  xExtra: Channel = {},
): VegaLiteSpec {
  return {
    layer: [
      {
        mark: { type: "point", filled: true, opacity: 0.5 },
        encoding: { x: q(x, { title: titles.x, scale: { zero: false }, ...xExtra }), y: q(y, { title: titles.y }) },
      },
      {
        transform: [{ [method]: y, on: x }],
        mark: { type: "line", color: "firebrick", strokeWidth: 2 },
        encoding: { x: q(x), y: q(y) },
      },
    ],
  };
}

/** Several numeric columns folded into (key, value) rows, for lines, bars or areas per column. */
export function folded(fields: string[], as: [string, string] = ["series", "value"]): Record<string, unknown> {
  return { fold: fields, as };
}
