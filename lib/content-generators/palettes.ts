import { nearestColorName } from "./color-names.ts";
import { clamp, describeRgb, hslToRgb, normaliseHue, type ColorValue, type Hsl } from "./color-space.ts";
import { randomIndex, type RandomSource } from "./shuffle-bag.ts";

export const PALETTE_SCHEMES = [
  "complementary",
  "analogous",
  "triadic",
  "split-complementary",
  "tetradic",
  "monochromatic",
] as const;
export type PaletteScheme = (typeof PALETTE_SCHEMES)[number];

export const PALETTE_SIZE = { min: 2, max: 10, default: 5 } as const;

/** One colour of a palette, with the nearest named colour (and that name's own hex, as it is rarely exact). */
export type Swatch = ColorValue & { name: string; name_hex: string };
export type Palette = { scheme: PaletteScheme; base: string; colors: Swatch[] };

// Hue offsets (degrees from the base) of each harmony; monochromatic keeps the hue and spreads lightness.
const HUES: Record<Exclude<PaletteScheme, "monochromatic" | "analogous">, number[]> = {
  complementary: [0, 180],
  triadic: [0, 120, 240],
  "split-complementary": [0, 150, 210],
  tetradic: [0, 90, 180, 270],
};

/**
 * The HSL colours of a harmony around `base`, `size` of them, base first. Harmonies with fewer hues
 * than `size` repeat their hues in lighter and darker tiers (+15, −15, +30 … points of lightness);
 * harmonies with more hues than `size` use their first `size` hues.
 */
export function harmonyHsl(scheme: PaletteScheme, base: Hsl, size: number): Hsl[] {
  if (scheme === "monochromatic") {
    // Evenly from dark to light; the base's own lightness is not kept, its hue and saturation are.
    return Array.from({ length: size }, (_, i) => ({ h: base.h, s: base.s, l: 20 + (65 * i) / (size - 1) }));
  }
  const hues = scheme === "analogous" ? analogousOffsets(size) : HUES[scheme];
  return Array.from({ length: size }, (_, i) => {
    const tier = Math.floor(i / hues.length);
    const shift = tier === 0 ? 0 : (tier % 2 === 1 ? 1 : -1) * 15 * Math.ceil(tier / 2);
    return { h: normaliseHue(base.h + hues[i % hues.length]!), s: base.s, l: clamp(base.l + shift, 10, 92) };
  });
}

// Neighbours alternate either side of the base (0, +s, −s, +2s, …) and stay within about ±60°.
function analogousOffsets(size: number): number[] {
  const step = Math.min(30, 60 / Math.ceil((size - 1) / 2));
  return Array.from({ length: size }, (_, i) => (i === 0 ? 0 : (i % 2 === 1 ? 1 : -1) * step * Math.ceil(i / 2)));
}

/** A random base that makes pleasant palettes: any hue, clearly coloured, mid lightness. */
export function randomBase(random: RandomSource): Hsl {
  return { h: random() * 360, s: 45 + random() * 40, l: 40 + random() * 20 };
}

export function pickScheme(random: RandomSource): PaletteScheme {
  return PALETTE_SCHEMES[randomIndex(random, PALETTE_SCHEMES.length)]!;
}

/** A palette with each colour in hex/rgb/hsl and its nearest name from color-name-list. */
export function buildPalette(scheme: PaletteScheme, base: Hsl, size: number): Palette {
  const colors = harmonyHsl(scheme, base, size).map((hsl): Swatch => {
    const value = describeRgb(hslToRgb(hsl));
    const nearest = nearestColorName(value.rgb);
    return { ...value, name: nearest.name, name_hex: nearest.hex };
  });
  return { scheme, base: describeRgb(hslToRgb(base)).hex, colors };
}
