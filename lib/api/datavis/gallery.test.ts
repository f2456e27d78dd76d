import * as vega from "vega";
import * as vl from "vega-lite";
import { describe, expect, it } from "vitest";
import { findDataset } from "../../trove/catalogue.ts";
import { datasetRows } from "../../trove/rows.ts";
import { countByCategory, VIS_CATEGORIES, VISUALIZATIONS, visualizationsIn, type Visualization } from "./gallery.ts";

/** Collects what vega-lite and vega report, so a spec that names a missing field fails the test. */
function collectingLogger(messages: string[]) {
  let level = 2;
  const logger = {
    level(value?: number) {
      if (value === undefined) return level;
      level = value;
      return logger;
    },
    error: (...args: unknown[]) => (messages.push(`error: ${args.join(" ")}`), logger),
    warn: (...args: unknown[]) => (messages.push(`warn: ${args.join(" ")}`), logger),
    info: () => logger,
    debug: () => logger,
  };
  return logger;
}

/** Serves the trove URLs the specs use from the shipped files, as the endpoint would. */
const troveLoader = () => {
  const loader = vega.loader();
  loader.load = async (uri: string) => {
    const match = /^\/v1\/trove\/([a-z_]+)\/([a-z0-9-]+)\?limit=\d+$/.exec(uri);
    if (!match) throw new Error(`unexpected data url ${uri}`);
    return JSON.stringify({ data: datasetRows(findDataset(match[1]!, match[2]!)) });
  };
  return loader;
};

type SceneNode = { marktype?: string; role?: string; items?: SceneNode[] };

/** Data items drawn by the chart's own marks (not axes, legends or titles), at any nesting depth. */
function countDataItems(node: SceneNode): number {
  let count = 0;
  for (const child of node.items ?? []) {
    if (node.role === "mark" && node.marktype !== "group") count += 1;
    else count += countDataItems(child);
  }
  return count;
}

async function renderSvg(vis: Visualization, messages: string[]): Promise<{ svg: string; items: number }> {
  const logger = collectingLogger(messages);
  const compiled = vl.compile(vis.spec as unknown as vl.TopLevelSpec, { logger: logger as never });
  const view = new vega.View(vega.parse(compiled.spec), {
    renderer: "none",
    loader: troveLoader(),
    logger: logger as never,
  });
  const svg = await view.toSVG();
  const items = countDataItems((view.scenegraph() as unknown as { root: SceneNode }).root);
  view.finalize();
  return { svg, items };
}

/** Every `field` a spec's encodings name (transforms are read by derivedFields). */
function encodedFields(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((v) => encodedFields(v, out));
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "field" && typeof v === "string") out.add(v);
      else if (k !== "transform") encodedFields(v, out);
    }
  }
  return out;
}

/** Fields a spec's transforms create: `as` outputs, and one column per value of a pivoted field. */
function derivedFields(node: unknown, rows: Array<Record<string, unknown>>, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((v) => derivedFields(v, rows, out));
  else if (node && typeof node === "object") {
    const o = node as Record<string, unknown>;
    if (typeof o.as === "string") out.add(o.as);
    if (Array.isArray(o.as)) o.as.forEach((a) => typeof a === "string" && out.add(a));
    if (typeof o.pivot === "string") rows.forEach((row) => out.add(String(row[o.pivot as string])));
    Object.values(o).forEach((v) => derivedFields(v, rows, out));
  }
  return out;
}

describe("datavis gallery", () => {
  it("has at least 123 visualizations with unique names, known categories and a real dataset", () => {
    expect(VISUALIZATIONS.length).toBeGreaterThanOrEqual(123);
    expect(new Set(VISUALIZATIONS.map((v) => v.name)).size).toBe(VISUALIZATIONS.length);
    for (const v of VISUALIZATIONS) {
      expect(VIS_CATEGORIES).toContain(v.category);
      const [category, id] = v.dataset.split("/");
      expect(() => findDataset(category!, id!), v.name).not.toThrow();
      expect(v.description.length, v.name).toBeGreaterThan(20);
    }
    for (const c of VIS_CATEGORIES)
      expect(
        VISUALIZATIONS.some((v) => v.category === c),
        c,
      ).toBe(true);
  });

  it("filters by category and counts every category, zeros included", () => {
    const maps = visualizationsIn("geographic");
    expect(maps.length).toBeGreaterThan(0);
    expect(maps.every((v) => v.category === "geographic")).toBe(true);
    expect(visualizationsIn()).toHaveLength(VISUALIZATIONS.length);
    expect(countByCategory(maps)).toEqual({
      ...Object.fromEntries(VIS_CATEGORIES.map((c) => [c, 0])),
      geographic: maps.length,
    });
    expect(Object.values(countByCategory()).reduce((a, b) => a + b, 0)).toBe(VISUALIZATIONS.length);
  });

  it("only encodes fields the dataset has or the spec derives", () => {
    for (const v of VISUALIZATIONS) {
      const [category, id] = v.dataset.split("/");
      const entry = findDataset(category!, id!);
      const known = new Set([...entry.fields.map((f) => f.name), ...derivedFields(v.spec, datasetRows(entry))]);
      for (const field of encodedFields(v.spec)) expect(known.has(field), `${v.name}: ${field}`).toBe(true);
    }
  });

  it.each(VISUALIZATIONS.map((v) => [v.name, v] as const))(
    "renders %s to an SVG with marks and no warnings",
    async (_name, vis) => {
      const messages: string[] = [];
      const { svg, items } = await renderSvg(vis, messages);
      expect(messages).toEqual([]);
      expect(svg.startsWith("<svg")).toBe(true);
      expect(svg).toContain("role-mark");
      // A chart whose filters or fields matched nothing still draws axes; it must draw data too.
      expect(items).toBeGreaterThanOrEqual(2);
    },
  );
});
