import { describe, expect, it } from "vitest";
import { colorNames, LabTree, nearestColorName } from "./color-names.ts";
import { hexToRgb, rgbToLab, type Rgb } from "./color-space.ts";
import { seeded } from "./test-random.ts";

describe("color-name-list", () => {
  it("loads every name with a well-formed, unique hex", () => {
    const names = colorNames();
    expect(names.length).toBeGreaterThan(30_000);
    expect(names.every((c) => /^#[0-9a-f]{6}$/.test(c.hex) && c.name.trim().length > 0)).toBe(true);
    expect(new Set(names.map((c) => c.hex)).size).toBe(names.length);
  });

  it("finds a listed colour exactly", () => {
    for (const c of colorNames().filter((_, i) => i % 1000 === 0)) {
      expect(nearestColorName(hexToRgb(c.hex))).toEqual({ ...c, distance: 0 });
    }
  });

  it("agrees with a brute-force search over Lab", () => {
    const random = seeded(11);
    const labs = colorNames().map((c) => rgbToLab(hexToRgb(c.hex)));
    for (let i = 0; i < 200; i++) {
      const rgb: Rgb = { r: Math.floor(random() * 256), g: Math.floor(random() * 256), b: Math.floor(random() * 256) };
      const q = rgbToLab(rgb);
      let best = Infinity;
      for (const p of labs) best = Math.min(best, (p.L - q.L) ** 2 + (p.a - q.a) ** 2 + (p.b - q.b) ** 2);
      expect(nearestColorName(rgb).distance).toBeCloseTo(Math.sqrt(best), 1);
    }
  });

  it("answers 10,000 lookups within two seconds of CPU once built", () => {
    nearestColorName({ r: 1, g: 2, b: 3 });
    const random = seeded(12);
    // CPU time, not the wall clock: on a busy CI machine the process waits for a core, and that is not the tree's cost.
    const started = process.cpuUsage();
    for (let i = 0; i < 10_000; i++)
      nearestColorName({ r: Math.floor(random() * 256), g: Math.floor(random() * 256), b: Math.floor(random() * 256) });
    const used = process.cpuUsage(started);
    const ms = (used.user + used.system) / 1000;
    console.log(`nearest colour name: ${((ms * 1000) / 10_000).toFixed(1)} µs of CPU per lookup`);
    expect(ms).toBeLessThan(2000);
  });
});

describe("LabTree", () => {
  it("returns the index of the nearest point, including ties on a splitting plane", () => {
    const points = [
      { L: 0, a: 0, b: 0 },
      { L: 50, a: 0, b: 0 },
      { L: 50, a: 10, b: 0 },
      { L: 100, a: 0, b: 0 },
      { L: 50, a: -10, b: 5 },
    ];
    const tree = new LabTree(points);
    expect(tree.nearest([49, 9, 0]).index).toBe(2);
    expect(tree.nearest([99, 0, 0])).toEqual({ index: 3, distanceSquared: 1 });
    expect(tree.nearest([50, -9, 4]).index).toBe(4);
    expect(tree.nearest([-5, 0, 0]).index).toBe(0);
  });
});
