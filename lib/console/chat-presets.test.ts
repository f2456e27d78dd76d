import { describe, expect, it } from "vitest";
import { MAX_PRESETS, readPresets, withPreset, type ChatPreset } from "./chat-presets.ts";

const preset = (name: string, model = "grok-4-fast"): ChatPreset => ({
  name,
  provider: "xai",
  model,
  system: "Be brief.",
  temperature: "0.2",
});

describe("chat presets", () => {
  it("reads back only valid presets, whatever was stored", () => {
    expect(readPresets(null)).toEqual([]);
    expect(readPresets("not json")).toEqual([]);
    expect(readPresets('{"name":"x"}')).toEqual([]);
    expect(readPresets(JSON.stringify([preset("Terse"), { name: "", provider: "xai" }, 7]))).toEqual([preset("Terse")]);
  });

  it("replaces a preset of the same name (any case), keeps them in name order, and caps how many", () => {
    const list = withPreset([preset("b"), preset("Terse")], preset("terse", "grok-4")) as ChatPreset[];
    expect(list.map((p) => [p.name, p.model])).toEqual([
      ["b", "grok-4-fast"],
      ["terse", "grok-4"],
    ]);
    const full = Array.from({ length: MAX_PRESETS }, (_, i) => preset(`p${i}`));
    expect(withPreset(full, preset("one more"))).toEqual({ error: `At most ${MAX_PRESETS} presets: delete one first` });
    expect(Array.isArray(withPreset(full, preset("p3", "grok-4")))).toBe(true);
  });
});
