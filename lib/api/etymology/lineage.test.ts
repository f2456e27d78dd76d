import { describe, expect, it } from "vitest";
import { parseCrossReferences, parseEtymology, parseRoots, repairItems, type EtymologyRecord } from "./lineage.ts";
import { etymologyRecord } from "./test-fixtures.ts";

const legend = {
  "AS.": "Anglo-Saxon (Old English)",
  "OE.": "Old English",
  "F.": "French",
  "LL.": "Late Latin",
  "L.": "Latin",
  "Icel.": "Icelandic",
  "Sw.": "Swedish",
  "Dan.": "Danish",
  "It.": "Italian",
  "Sp.": "Spanish",
  "Goth.": "Gothic",
  "E.": "English",
  "Gr.": "Greek",
};

const record = (fields: Partial<EtymologyRecord>) => etymologyRecord("w", fields);

describe("parseEtymology", () => {
  it("turns GCIDE's newest-first chain into oldest-first", () => {
    const parsed = parseEtymology(
      record({
        word: "ancient",
        etymology: "OE. auncien, F. ancien, LL. antianus, fr. L. ante before. See {Ante-}, pref.",
        lineage: [
          { lang: "OE.", form: "auncien" },
          { lang: "F.", form: "ancien" },
          { lang: "LL.", form: "antianus" },
          { lang: "L.", form: "ante", gloss: "before" },
        ],
      }),
      legend,
    );
    expect(parsed.lineage.map((i) => `${i.lang} ${i.form}`)).toEqual([
      "L. ante",
      "LL. antianus",
      "F. ancien",
      "OE. auncien",
    ]);
    expect(parsed.lineage[0]!.gloss).toBe("before");
    expect(parsed.cites).toEqual(["ante-"]);
  });

  it("moves English mentions out of the cognates into the cited words, and drops illegible forms", () => {
    const parsed = parseEtymology(
      record({
        word: "love",
        etymology: "OE. love, AS. lufe; akin to E. lief, L. lubet. See {Lief}.",
        lineage: [
          { lang: "OE.", form: "love" },
          { lang: "AS.", form: "?" },
        ],
        cognates: [
          { lang: "E.", form: "lief" },
          { lang: "L.", form: "lubet" },
          { lang: "Gr.", form: "? ?" },
        ],
      }),
      legend,
    );
    expect(parsed.lineage).toEqual([{ lang: "OE.", form: "love" }]);
    expect(parsed.cognates).toEqual([{ lang: "L.", form: "lubet" }]);
    expect(parsed.cites).toEqual(["lief"]);
  });

  it("never lists the word as citing itself", () => {
    expect(parseEtymology(record({ word: "only", etymology: "See {Only}, a." }), legend).cites).toEqual([]);
  });
});

describe("repairItems", () => {
  it("splits a gloss that holds further language-tagged forms", () => {
    expect(repairItems([{ lang: "Icel.", form: "faðir", gloss: "Sw. & Dan. fader" }], legend)).toEqual([
      { lang: "Icel.", form: "faðir" },
      { lang: "Sw.", form: "fader" },
      { lang: "Dan.", form: "fader" },
    ]);
    expect(repairItems([{ lang: "Sw.", form: "frände", gloss: "Goth. frijōnds friend" }], legend)).toEqual([
      { lang: "Sw.", form: "frände" },
      { lang: "Goth.", form: "frijōnds", gloss: "friend" },
    ]);
  });

  it('gives a connective\'s place to the form after it ("It. or Sp. calma")', () => {
    expect(repairItems([{ lang: "It.", form: "or", gloss: "Sp. calma (" }], legend)).toEqual([
      { lang: "It.", form: "calma" },
      { lang: "Sp.", form: "calma" },
    ]);
  });

  it("leaves real glosses and non-language tags alone", () => {
    const items = [
      { lang: "L.", form: "ante", gloss: "before" },
      { lang: "AS.", form: "druncen", gloss: "Orig. the same as drunken" },
    ];
    expect(repairItems(items, legend)).toEqual(items);
  });
});

describe("parseRoots and parseCrossReferences", () => {
  it("reads every root number", () => {
    expect(parseRoots("… Skr. pā protect. √75, 247. Cf. {Papa}.")).toEqual(["75", "247"]);
    expect(parseRoots("AS. wæter … √137. Cf. {Dropsy}.")).toEqual(["137"]);
    expect(parseRoots(null)).toEqual([]);
    expect(parseRoots("no roots")).toEqual([]);
  });

  it("reads cross-references once each, lower-cased", () => {
    expect(parseCrossReferences("Cf. {Dropsy}, {Hydra}, {Otter}, 4th {Core}, {Dropsy}.")).toEqual([
      "dropsy",
      "hydra",
      "otter",
      "core",
    ]);
    expect(parseCrossReferences(null)).toEqual([]);
  });
});
