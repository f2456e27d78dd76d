import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { describeLanguage, type LanguageLegend, unprofiledLanguages } from "./languages.ts";
import { LEGEND_PATH } from "./store.ts";

const legend = JSON.parse(fs.readFileSync(LEGEND_PATH, "utf8")) as LanguageLegend;

describe("describeLanguage", () => {
  it("expands GCIDE abbreviations to the legend's names", () => {
    expect(describeLanguage("AS.", legend)).toMatchObject({
      lang: "AS.",
      name: "Anglo-Saxon (Old English)",
      family: "Indo-European",
      branch: "Germanic (West)",
      period: "c. 450–1150",
    });
    expect(describeLanguage("Skr.", legend).name).toBe("Sanskrit");
    expect(describeLanguage("Gr.", legend).name).toBe("Greek");
    expect(describeLanguage("Gk.", legend).name).toBe("Greek");
    expect(describeLanguage("Norm. F.", legend).name).toBe("Norman French");
  });

  it("keeps Webster's meaning of OE. (Middle English), after AS. and before modern English", () => {
    const [as, oe, e] = ["AS.", "OE.", "E."].map((l) => describeLanguage(l, legend).era!);
    expect(as).toBeLessThan(oe!);
    expect(oe).toBeLessThan(e!);
    expect(describeLanguage("OE.", legend).name).toMatch(/Middle English/);
  });

  it("orders the classical languages before the medieval and modern ones", () => {
    const eras = ["Skr.", "Gr.", "L.", "LL.", "OF.", "F."].map((l) => describeLanguage(l, legend).era!);
    expect(eras).toEqual([...eras].sort((a, b) => a - b));
    expect(describeLanguage("Skr.", legend).period).toBe("c. 1500 BC–1000");
    expect(describeLanguage("G.", legend).period).toBe("c. 1500–present");
  });

  it("gives every legend language a family and an era", () => {
    expect(unprofiledLanguages(legend)).toEqual([]);
    for (const lang of Object.keys(legend)) expect(describeLanguage(lang, legend).era).not.toBeNull();
  });

  it("passes an abbreviation the legend lacks through, with no era", () => {
    expect(describeLanguage("Xyz.", legend)).toEqual({
      lang: "Xyz.",
      name: "Xyz.",
      family: "Unknown",
      branch: "Unknown",
      era: null,
    });
    expect(describeLanguage("Icel", legend).name).toBe("Icelandic (Old Norse)");
  });
});
