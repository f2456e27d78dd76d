/** Output sizes in pixels. Large presets render a 4K viewport at a higher device scale. */
export const PRESETS = {
  "og-facebook": { label: "Open Graph (Facebook)", width: 1200, height: 630, scale: 1, social: true },
  twitter: { label: "X / Twitter card", width: 1200, height: 675, scale: 1, social: true },
  linkedin: { label: "LinkedIn share", width: 1200, height: 627, scale: 1, social: true },
  "instagram-square": { label: "Instagram square", width: 1080, height: 1080, scale: 1, social: true },
  "instagram-portrait": { label: "Instagram portrait", width: 1080, height: 1350, scale: 1, social: true },
  "instagram-story": { label: "Instagram story", width: 1080, height: 1920, scale: 1, social: true },
  pinterest: { label: "Pinterest pin", width: 1000, height: 1500, scale: 1, social: true },
  "mobile-iphone": { label: "iPhone (390×844 @3x)", width: 390, height: 844, scale: 3, social: false },
  "mobile-android": { label: "Android (412×915 @2.625x)", width: 412, height: 915, scale: 2.625, social: false },
  "tablet-portrait": { label: "Tablet portrait (768×1024 @2x)", width: 768, height: 1024, scale: 2, social: false },
  "2k": { label: "2K (2560×1440)", width: 2560, height: 1440, scale: 1, social: false },
  "4k": { label: "4K (3840×2160)", width: 3840, height: 2160, scale: 1, social: false },
  "8k": { label: "8K (7680×4320)", width: 3840, height: 2160, scale: 2, social: false },
  "16k": { label: "16K (15360×8640)", width: 3840, height: 2160, scale: 4, social: false },
} as const;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];
export const SOCIAL_PRESETS = PRESET_NAMES.filter((n) => PRESETS[n].social);

/** The image a preset produces: its viewport times its device scale. */
export function presetPixels(name: PresetName): { width: number; height: number } {
  const p = PRESETS[name];
  return { width: Math.round(p.width * p.scale), height: Math.round(p.height * p.scale) };
}
