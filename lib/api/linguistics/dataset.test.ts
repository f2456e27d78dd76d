import { describe, expect, it } from "vitest";
import { linguistics } from "./dataset.ts";
import { MACROAREAS, STATUSES } from "./glottolog.ts";
import { coverage } from "./overview.ts";
import { MANNERS, PLACES, phonemeRowCount } from "./phoible.ts";

// Loads the shipped files, as the first request does, and checks them against data/SOURCE.md.
describe("the shipped linguistics data", () => {
  it("loads once, with the counts SOURCE.md gives, in modest time and memory", async () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    const data = await linguistics();
    const ms = performance.now() - started;
    gc?.();
    const heapMb = (process.memoryUsage().heapUsed - before) / 1e6;
    console.log(
      `linguistics cold load: ${Math.round(ms)} ms, heap +${heapMb.toFixed(1)} MB${gc ? "" : " (without --expose-gc: includes garbage)"}`,
    );
    expect((await linguistics()).glottolog).toBe(data.glottolog);

    expect(coverage(data)).toEqual({
      languages: 8605,
      languages_with_iso639_3: 7853,
      phonemes: 105484,
      phoneme_inventories: 3020,
      segments: 3142,
      wals_parameters: 192,
      wals_languages: 2662,
      wals_datapoints: 76475,
    });
    // A generous bound: the suite shares two cores with others; the measured figure is logged above.
    expect(ms).toBeLessThan(60_000);
  });

  it("has only the labels the API's enums list", async () => {
    const { glottolog, phoible } = await linguistics();
    const regions = new Set(glottolog.languages.map((l) => l.macroarea).filter(Boolean));
    expect([...regions].sort()).toEqual([...MACROAREAS]);
    const statuses = new Set(glottolog.languages.map((l) => l.endangerment).filter(Boolean));
    expect([...statuses].sort()).toEqual([...STATUSES].sort());
    expect(phoible.segments.every((s) => s.manner === null || (MANNERS as readonly string[]).includes(s.manner))).toBe(
      true,
    );
    expect(phoible.segments.every((s) => s.place === null || (PLACES as readonly string[]).includes(s.place))).toBe(
      true,
    );
  });

  it("agrees with itself: segment counts add up to the rows, and WALS categories to SOURCE.md's split", async () => {
    const { phoible, wals } = await linguistics();
    expect(phoible.segments.reduce((sum, s) => sum + s.inventories, 0)).toBe(phonemeRowCount(phoible));
    expect(phoible.inventories.reduce((sum, i) => sum + i.count_phonemes, 0)).toBe(phonemeRowCount(phoible));
    const types = { consonant: 0, vowel: 0, tone: 0 };
    for (const s of phoible.segments) types[s.type] += 1;
    expect(types).toEqual({ consonant: 1992, vowel: 1090, tone: 60 });
    const categories: Record<string, number> = {};
    for (const p of wals.parameters) categories[p.category] = (categories[p.category] ?? 0) + 1;
    expect(categories).toEqual({ phonology: 20, morphology: 58, syntax: 97, lexicon: 13, other: 4 });
    expect(wals.parameters.every((p) => p.counts.reduce((a, b) => a + b, 0) === p.datapoints)).toBe(true);
  });
});
