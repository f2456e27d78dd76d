import fs from "node:fs";
import path from "node:path";
import { hexToRgb, rgbToLab, type Rgb } from "./color-space.ts";

/** One entry of color-name-list (MIT, David Aerne): a name and its #rrggbb. */
export type ColorName = { name: string; hex: string };
export type NearestName = ColorName & {
  /** CIE76 ΔE (Euclidean distance in Lab); 0 for an exact match. */ distance: number;
};

// The package's `colornames.min.json` maps "rrggbb" → name (31,881 names, 0.75 MB). Read from
// node_modules at run time rather than imported, so Next does not bundle 0.75 MB into the route.
const LIST_FILE = path.join(process.cwd(), "node_modules", "color-name-list", "dist", "colornames.min.json");

let names: ColorName[] | undefined;
let tree: LabTree | undefined;

/** Every named colour, loaded on first use and kept for the life of the process (immutable). */
export function colorNames(): readonly ColorName[] {
  names ??= Object.entries(
    JSON.parse(fs.readFileSync(/*turbopackIgnore: true*/ LIST_FILE, "utf8")) as Record<string, string>,
  ).map(([hex, name]) => ({ name, hex: `#${hex.toLowerCase()}` }));
  return names;
}

/** The named colour perceptually nearest to `rgb` (k-d tree over Lab, built once on first use). */
export function nearestColorName(rgb: Rgb): NearestName {
  tree ??= new LabTree(colorNames().map((c) => rgbToLab(hexToRgb(c.hex))));
  const lab = rgbToLab(rgb);
  const { index, distanceSquared } = tree.nearest([lab.L, lab.a, lab.b]);
  return { ...colorNames()[index]!, distance: Math.round(Math.sqrt(distanceSquared) * 100) / 100 };
}

/**
 * A static 3-d k-d tree stored implicitly in one index array: each range's median is its node, the
 * halves before and after it are the subtrees, and the split axis cycles L → a → b with depth.
 */
export class LabTree {
  private readonly ids: Uint32Array;
  private readonly coords: Float64Array;

  constructor(points: readonly { L: number; a: number; b: number }[]) {
    if (points.length === 0) throw new RangeError("a k-d tree needs at least one point");
    this.coords = new Float64Array(points.length * 3);
    points.forEach((p, i) => this.coords.set([p.L, p.a, p.b], i * 3));
    this.ids = Uint32Array.from(points.keys());
    this.build(0, points.length, 0);
  }

  nearest(query: readonly [number, number, number]): { index: number; distanceSquared: number } {
    const best = { index: 0, distanceSquared: Infinity };
    this.search(query, 0, this.ids.length, 0, best);
    return best;
  }

  private coord(id: number, axis: number): number {
    return this.coords[id * 3 + axis]!;
  }

  private build(lo: number, hi: number, axis: number): void {
    if (hi - lo <= 1) return;
    const mid = (lo + hi) >> 1;
    this.select(lo, hi - 1, mid, axis);
    const next = (axis + 1) % 3;
    this.build(lo, mid, next);
    this.build(mid + 1, hi, next);
  }

  // Quickselect (Hoare partition): afterwards ids[k] holds the k-th smallest along `axis`, smaller
  // ones before it and larger ones after.
  private select(left: number, right: number, k: number, axis: number): void {
    const ids = this.ids;
    while (right > left) {
      const pivot = this.coord(ids[(left + right) >> 1]!, axis);
      let i = left;
      let j = right;
      while (i <= j) {
        while (this.coord(ids[i]!, axis) < pivot) i++;
        while (this.coord(ids[j]!, axis) > pivot) j--;
        if (i <= j) {
          const t = ids[i]!;
          ids[i] = ids[j]!;
          ids[j] = t;
          i++;
          j--;
        }
      }
      if (k <= j) right = j;
      else if (k >= i) left = i;
      else return;
    }
  }

  private search(
    q: readonly number[],
    lo: number,
    hi: number,
    axis: number,
    best: { index: number; distanceSquared: number },
  ): void {
    if (lo >= hi) return;
    const mid = (lo + hi) >> 1;
    const id = this.ids[mid]!;
    const dL = q[0]! - this.coord(id, 0);
    const da = q[1]! - this.coord(id, 1);
    const db = q[2]! - this.coord(id, 2);
    const d = dL * dL + da * da + db * db;
    if (d < best.distanceSquared) {
      best.distanceSquared = d;
      best.index = id;
    }
    const diff = q[axis]! - this.coord(id, axis);
    const next = (axis + 1) % 3;
    const [near, far] =
      diff < 0
        ? [
            [lo, mid],
            [mid + 1, hi],
          ]
        : [
            [mid + 1, hi],
            [lo, mid],
          ];
    this.search(q, near[0]!, near[1]!, next, best);
    // The other side can only hold a closer point if the splitting plane is nearer than the best.
    if (diff * diff < best.distanceSquared) this.search(q, far[0]!, far[1]!, next, best);
  }
}
