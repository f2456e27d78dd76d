import { describe, expect, it } from "vitest";
import { exploreWord, inferPartOfSpeech, MAX_LINKED_WORDS } from "./explore.ts";
import { indexRecords } from "./store.ts";
import { etymologyRecord as rec } from "./test-fixtures.ts";

const legend = {
  "AS.": "Anglo-Saxon (Old English)",
  "OE.": "Old English (Middle English in Webster 1913 usage)",
  "L.": "Latin",
  "LL.": "Late Latin",
  "F.": "French",
  "G.": "German",
  "E.": "English",
};

const records = [
  rec("ancient", {
    pos: ["adjective", "noun"],
    definitions: ["Old; that happened in former times."],
    etymology: "OE. auncien, F. ancien, LL. antianus, fr. L. ante before. See {Ante}.",
    lineage: [
      { lang: "OE.", form: "auncien" },
      { lang: "F.", form: "ancien" },
      { lang: "LL.", form: "antianus" },
      { lang: "L.", form: "ante", gloss: "before" },
    ],
  }),
  rec("ante", { etymology: "L. ante." }),
  rec("antique", { etymology: "F. antique, L. antiquus, fr. ante.", lineage: [{ lang: "L.", form: "ante" }] }),
  rec("ensign", { etymology: "Cf. {Ancient} a flag." }),
  rec("water", {
    pos: ["noun", "verb"],
    definitions: ["The fluid.", "To wet or supply with water.", "(Bot.) To irrigate."],
    etymology: "AS. wæter; akin to G. wasser. √137. Cf. {Wet}.",
    lineage: [{ lang: "AS.", form: "wæter" }],
    cognates: [
      { lang: "G.", form: "wasser" },
      { lang: "E.", form: "wet" },
    ],
  }),
  rec("wet", { etymology: "AS. wǣt. √137." }),
  rec("vaseline", { etymology: "G. wasser + Gr. elaion.", lineage: [{ lang: "G.", form: "wasser" }] }),
  ...Array.from({ length: 30 }, (_, i) => rec(`watery${i}`, { etymology: "See {Water}. √137." })),
];
const store = indexRecords(records, legend);

describe("exploreWord", () => {
  it("returns null for a word that is not a headword", () => {
    expect(exploreWord(store, "nope")).toBeNull();
  });

  it("gives the lineage oldest first with languages expanded", () => {
    const e = exploreWord(store, "ancient")!;
    expect(e.lineage.map((i) => [i.lang, i.language, i.form])).toEqual([
      ["L.", "Latin", "ante"],
      ["LL.", "Late Latin", "antianus"],
      ["F.", "French", "ancien"],
      ["OE.", "Old English (Middle English in Webster 1913 usage)", "auncien"],
    ]);
    expect(e.lineage[0]).toMatchObject({ gloss: "before", family: "Indo-European", period: "c. 75 BC–200" });
    expect(e.definitions).toEqual([{ definition: "Old; that happened in former times.", part_of_speech: "adjective" }]);
  });

  it("lists cited words, words citing this one, then words sharing an ancestor form", () => {
    expect(exploreWord(store, "ancient")!.related).toEqual([
      { word: "ante", relation: "cites" },
      { word: "ensign", relation: "cited_by" },
      { word: "antique", relation: "shares_ancestor", via: "L. ante" },
    ]);
  });

  it("separates sister-language forms from English cognates: words from a sister form first, then by root, capped", () => {
    const e = exploreWord(store, "water")!;
    expect(e.cognates.forms.map((f) => `${f.lang} ${f.form} ${f.language}`)).toEqual(["G. wasser German"]);
    expect(e.roots).toEqual(["137"]);
    expect(e.cognates.headwords).toHaveLength(MAX_LINKED_WORDS);
    expect(e.cognates.headwords.slice(0, 2)).toEqual([
      { word: "vaseline", relation: "from_cognate_form", via: "G. wasser" },
      { word: "wet", relation: "shares_root", via: "√137" },
    ]);
    expect(e.cognates.headwords.slice(2).every((c) => c.relation === "shares_root")).toBe(true);
    expect(e.cognates.headwords.map((c) => c.word)).not.toContain("water");
    expect(e.related[0]).toEqual({ word: "wet", relation: "cites" });
    expect(e.related).toHaveLength(MAX_LINKED_WORDS);
    expect(e.related.slice(1).every((r) => r.relation === "cited_by")).toBe(true);
  });

  it('tags verb senses ("To …") as verbs and the others with the first other part of speech', () => {
    expect(exploreWord(store, "water")!.definitions.map((d) => d.part_of_speech)).toEqual(["noun", "verb", "verb"]);
    expect(inferPartOfSpeech("To run.", ["noun"])).toBe("noun");
    expect(inferPartOfSpeech("Anything.", ["verb"])).toBe("verb");
    expect(inferPartOfSpeech("Anything.", [])).toBeNull();
  });
});
