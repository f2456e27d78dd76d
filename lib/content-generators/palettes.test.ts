import { describe, expect, it } from "vitest";
import { hexToRgb, hslToRgb } from "./color-space.ts";
import { buildPalette, harmonyHsl, PALETTE_SCHEMES, pickScheme, randomBase } from "./palettes.ts";

const base = { h: 200, s: 70, l: 50 };
const hueGap = (a: number, b: number) => (((b - a) % 360) + 360) % 360;

describe("harmonyHsl", () => {
  it("puts each scheme's hues where colour theory does", () => {
    expect(harmonyHsl("complementary", base, 2).map((c) => c.h)).toEqual([200, 20]);
    expect(harmonyHsl("triadic", base, 3).map((c) => c.h)).toEqual([200, 320, 80]);
    expect(harmonyHsl("split-complementary", base, 3).map((c) => c.h)).toEqual([200, 350, 50]);
    expect(harmonyHsl("tetradic", base, 4).map((c) => c.h)).toEqual([200, 290, 20, 110]);
    expect(harmonyHsl("analogous", base, 3).map((c) => c.h)).toEqual([200, 230, 170]);
  });

  it("keeps analogous colours within 60° of the base at every size", () => {
    for (let size = 2; size <= 10; size++) {
      const hues = harmonyHsl("analogous", base, size).map((c) => c.h);
      expect(Math.max(...hues.map((h) => Math.abs(h - base.h)))).toBeLessThanOrEqual(60);
      expect(new Set(hues).size).toBe(size);
    }
  });

  it("repeats hues in lighter and darker tiers when the palette is bigger than the harmony", () => {
    const six = harmonyHsl("complementary", base, 6);
    expect(six.map((c) => [c.h, c.l])).toEqual([
      [200, 50],
      [20, 50],
      [200, 65],
      [20, 65],
      [200, 35],
      [20, 35],
    ]);
  });

  it("spreads monochromatic lightness from dark to light on the base hue and saturation", () => {
    const mono = harmonyHsl("monochromatic", base, 5);
    expect(mono.map((c) => c.l)).toEqual([20, 36.25, 52.5, 68.75, 85]);
    expect(mono.every((c) => c.h === 200 && c.s === 70)).toBe(true);
  });

  it("uses the first hues of a harmony bigger than the palette", () => {
    expect(harmonyHsl("tetradic", base, 2).map((c) => c.h)).toEqual([200, 290]);
  });
});

describe("buildPalette", () => {
  it("gives every colour consistent hex, rgb and hsl, and a nearby name", () => {
    for (const scheme of PALETTE_SCHEMES) {
      for (const size of [2, 5, 10]) {
        const palette = buildPalette(scheme, base, size);
        expect(palette.scheme).toBe(scheme);
        expect(palette.colors).toHaveLength(size);
        expect(new Set(palette.colors.map((c) => c.hex)).size).toBe(size);
        for (const c of palette.colors) {
          expect(hexToRgb(c.hex)).toEqual(c.rgb);
          const back = hslToRgb(c.hsl);
          // hsl is rounded to whole degrees and percent, so it can be a few units off per channel.
          expect(
            Math.max(Math.abs(back.r - c.rgb.r), Math.abs(back.g - c.rgb.g), Math.abs(back.b - c.rgb.b)),
          ).toBeLessThanOrEqual(4);
          expect(c.name.length).toBeGreaterThan(0);
          expect(c.name_hex).toMatch(/^#[0-9a-f]{6}$/);
        }
      }
    }
  });

  it("keeps the complementary hue 180° away after rounding to 24-bit colour", () => {
    const [first, second] = buildPalette("complementary", base, 2).colors;
    expect(first!.hex).toBe(buildPalette("triadic", base, 3).base);
    expect(Math.abs(hueGap(first!.hsl.h, second!.hsl.h) - 180)).toBeLessThanOrEqual(1);
  });

  it("draws bases and schemes from the random source", () => {
    expect(randomBase(() => 0)).toEqual({ h: 0, s: 45, l: 40 });
    expect(randomBase(() => 0.5)).toEqual({ h: 180, s: 65, l: 50 });
    expect(pickScheme(() => 0)).toBe("complementary");
    expect(pickScheme(() => 0.99)).toBe("monochromatic");
  });
});
