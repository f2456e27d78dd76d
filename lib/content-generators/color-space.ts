/** Integer channels, 0–255. */
export type Rgb = { r: number; g: number; b: number };
/** Hue in degrees [0, 360), saturation and lightness in percent [0, 100]. */
export type Hsl = { h: number; s: number; l: number };
/** CIELAB (D65): the space where Euclidean distance roughly follows perceived difference. */
export type Lab = { L: number; a: number; b: number };

/** A colour as the API shows it: the three notations always describe the same 24-bit colour. */
export type ColorValue = { hex: string; rgb: Rgb; hsl: Hsl };

export function hexToRgb(hex: string): Rgb {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new RangeError(`not a #rrggbb colour: '${hex}'`);
  const n = parseInt(m[1]!, 16);
  return { r: n >> 16, g: (n >> 8) & 0xff, b: n & 0xff };
}

export function rgbToHex({ r, g, b }: Rgb): string {
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/** Exact (unrounded) HSL of an RGB colour. */
export function rgbToHsl({ r, g, b }: Rgb): Hsl {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l: l * 100 };
  const s = d / (1 - Math.abs(2 * l - 1));
  let h: number;
  if (max === R) h = ((G - B) / d) % 6;
  else if (max === G) h = (B - R) / d + 2;
  else h = (R - G) / d + 4;
  return { h: normaliseHue(h * 60), s: s * 100, l: l * 100 };
}

/** RGB of an HSL colour, each channel rounded to the nearest integer. */
export function hslToRgb({ h, s, l }: Hsl): Rgb {
  const S = clamp(s, 0, 100) / 100;
  const L = clamp(l, 0, 100) / 100;
  const c = (1 - Math.abs(2 * L - 1)) * S;
  const hp = normaliseHue(h) / 60;
  const x = c * (1 - Math.abs((hp % 2) - 1));
  const [r1, g1, b1] =
    hp < 1 ? [c, x, 0] : hp < 2 ? [x, c, 0] : hp < 3 ? [0, c, x] : hp < 4 ? [0, x, c] : hp < 5 ? [x, 0, c] : [c, 0, x];
  const m = L - c / 2;
  const channel = (v: number) => Math.round(clamp((v + m) * 255, 0, 255));
  return { r: channel(r1), g: channel(g1), b: channel(b1) };
}

// sRGB channel → linear light, for each of the 256 channel values: a table, because the
// 31,881-name index converts ~96,000 channels on first use and the power function dominates.
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

export function rgbToLab({ r, g, b }: Rgb): Lab {
  const [R, G, B] = [LINEAR[r]!, LINEAR[g]!, LINEAR[b]!];
  // sRGB → XYZ (D65), divided by the D65 white point.
  const x = (0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / 0.95047;
  const y = 0.2126729 * R + 0.7151522 * G + 0.072175 * B;
  const z = (0.0193339 * R + 0.119192 * G + 0.9503041 * B) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return { L: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz) };
}

/**
 * The API's notation of a 24-bit colour: hex, rgb, and HSL rounded to whole degrees and percent
 * (computed from the rounded RGB, so all three agree).
 */
export function describeRgb(rgb: Rgb): ColorValue {
  const hsl = rgbToHsl(rgb);
  return { hex: rgbToHex(rgb), rgb, hsl: { h: Math.round(hsl.h) % 360, s: Math.round(hsl.s), l: Math.round(hsl.l) } };
}

export function normaliseHue(h: number): number {
  return ((h % 360) + 360) % 360;
}

export function clamp(v: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, v));
}
