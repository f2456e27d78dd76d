import { describe, expect, it } from "vitest";
import { describeRgb, hexToRgb, hslToRgb, rgbToHex, rgbToHsl, rgbToLab } from "./color-space.ts";

describe("colour notations", () => {
  it("converts hex and rgb both ways", () => {
    expect(hexToRgb("#ff8000")).toEqual({ r: 255, g: 128, b: 0 });
    expect(hexToRgb("0A0b0C")).toEqual({ r: 10, g: 11, b: 12 });
    expect(rgbToHex({ r: 0, g: 1, b: 255 })).toBe("#0001ff");
    expect(() => hexToRgb("#fff")).toThrow(RangeError);
  });

  it("knows the primaries, greys and a few reference colours in HSL", () => {
    expect(rgbToHsl({ r: 255, g: 0, b: 0 })).toEqual({ h: 0, s: 100, l: 50 });
    expect(rgbToHsl({ r: 0, g: 255, b: 0 })).toEqual({ h: 120, s: 100, l: 50 });
    expect(rgbToHsl({ r: 0, g: 0, b: 255 })).toEqual({ h: 240, s: 100, l: 50 });
    expect(rgbToHsl({ r: 128, g: 128, b: 128 })).toMatchObject({ h: 0, s: 0 });
    expect(hslToRgb({ h: 300, s: 100, l: 25 })).toEqual({ r: 128, g: 0, b: 128 });
    expect(hslToRgb({ h: 39, s: 100, l: 50 })).toEqual({ r: 255, g: 166, b: 0 });
    expect(hslToRgb({ h: -60, s: 100, l: 50 })).toEqual(hslToRgb({ h: 300, s: 100, l: 50 }));
  });

  it("round-trips every 7th 24-bit colour through HSL without losing it", () => {
    let worst = 0;
    for (let n = 0; n < 1 << 24; n += 7 * 4099) {
      const rgb = { r: n >> 16, g: (n >> 8) & 255, b: n & 255 };
      const back = hslToRgb(rgbToHsl(rgb));
      worst = Math.max(worst, Math.abs(back.r - rgb.r), Math.abs(back.g - rgb.g), Math.abs(back.b - rgb.b));
    }
    expect(worst).toBe(0);
  });

  it("describes a colour with hex, rgb and rounded hsl that agree", () => {
    const value = describeRgb({ r: 51, g: 102, b: 153 });
    expect(value).toEqual({ hex: "#336699", rgb: { r: 51, g: 102, b: 153 }, hsl: { h: 210, s: 50, l: 40 } });
  });

  it("puts white, black and mid grey where CIELAB says", () => {
    const white = rgbToLab({ r: 255, g: 255, b: 255 });
    expect(white.L).toBeCloseTo(100, 2);
    expect(Math.abs(white.a) + Math.abs(white.b)).toBeLessThan(0.01);
    expect(rgbToLab({ r: 0, g: 0, b: 0 }).L).toBeCloseTo(0, 5);
    expect(rgbToLab({ r: 119, g: 119, b: 119 }).L).toBeCloseTo(50, 0);
    // sRGB red is L 53.24, a 80.09, b 67.20 in every reference table.
    const red = rgbToLab({ r: 255, g: 0, b: 0 });
    expect([red.L, red.a, red.b].map((v) => Math.round(v))).toEqual([53, 80, 67]);
  });
});
