import { z } from "zod";

/**
 * The chat console's saved settings: a name, the provider and model, the system prompt and the
 * temperature. Kept in the browser's localStorage (they hold no key), read back through this schema so a
 * stored value edited by hand or written by an older page is dropped, never trusted.
 */
export const PRESETS_STORAGE_KEY = "gateway.chat.presets";
export const MAX_PRESETS = 20;

export const ChatPreset = z.object({
  name: z.string().trim().min(1, "Give the preset a name").max(60, "A preset's name is at most 60 characters"),
  provider: z.string().min(1).max(100),
  model: z.string().min(1).max(200),
  system: z.string().max(20_000),
  /** As the temperature field holds it: "" for the model's default. */
  temperature: z.string().max(10),
});
export type ChatPreset = z.infer<typeof ChatPreset>;

/** The presets stored, the valid ones only, at most MAX_PRESETS. */
export function readPresets(stored: string | null): ChatPreset[] {
  if (!stored) return [];
  try {
    const list = JSON.parse(stored) as unknown;
    if (!Array.isArray(list)) return [];
    return list
      .flatMap((p) => {
        const parsed = ChatPreset.safeParse(p);
        return parsed.success ? [parsed.data] : [];
      })
      .slice(0, MAX_PRESETS);
  } catch {
    return [];
  }
}

/** The list with `preset` in it: one of the same name is replaced; a new one is refused past MAX_PRESETS. */
export function withPreset(list: readonly ChatPreset[], preset: ChatPreset): ChatPreset[] | { error: string } {
  const same = (p: ChatPreset) => p.name.toLowerCase() === preset.name.toLowerCase();
  if (!list.some(same) && list.length >= MAX_PRESETS)
    return { error: `At most ${MAX_PRESETS} presets: delete one first` };
  return [...list.filter((p) => !same(p)), preset].sort((a, b) => a.name.localeCompare(b.name));
}
