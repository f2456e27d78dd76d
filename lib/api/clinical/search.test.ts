import { describe, expect, it } from "vitest";
import { SECTIONS, listConditions, type Condition } from "./conditions.ts";
import { buildSearchIndex, buildSnippet, conditionSearchIndex, searchConditions, stem, tokenise } from "./search.ts";

function condition(id: number, name: string, text: string): Condition {
  const sections = Object.fromEntries(
    Object.keys(SECTIONS).map((k) => [k, k === "overview" ? text : "Filler words about care."]),
  ) as Condition["sections"];
  return {
    id,
    slug: name.toLowerCase().replace(/\W+/g, "-"),
    name,
    category: "acquired",
    icd10: "R47.01",
    icd11: null,
    aac_strategies: ["x"],
    sections,
    markdown: "",
  };
}

describe("tokenise and stem", () => {
  it("lower-cases, drops stop words and single letters, and folds plurals", () => {
    expect(tokenise("The Strategies of a Child's AAC-devices")).toEqual(["strategy", "child", "aac", "device"]);
    expect(stem("Dysarthrias")).toBe("dysarthria");
    expect(stem("syndromes")).toBe("syndrome");
    expect(stem("apraxis")).toBe("apraxis");
    expect(tokenise("ICD-10-CM F84.0, 6A01.20. Done.")).toEqual(["icd", "10", "cm", "f84.0", "6a01.20", "done"]);
  });
});

describe("searchConditions", () => {
  const index = buildSearchIndex([
    condition(1, "Stroke", "A stroke can cause aphasia. Aphasia after stroke is common, and aphasia therapy helps."),
    condition(2, "Aphasia", "A language disorder after brain injury."),
    condition(3, "Cleft palate", "A structural difference of the palate."),
  ]);

  it("ranks a condition named by the query above one that mentions it more often in passing", () => {
    const hits = searchConditions(index, "aphasia", 10);
    expect(hits.map((h) => h.id)).toEqual(["aphasia", "stroke"]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it("scores several terms together and leaves out conditions that match none", () => {
    const hits = searchConditions(index, "palate stroke", 10);
    expect(hits.map((h) => h.id).sort()).toEqual(["cleft-palate", "stroke"]);
    expect(searchConditions(index, "zebra", 10)).toEqual([]);
    expect(searchConditions(index, "the of", 10)).toEqual([]);
  });

  it("honours the limit", () => {
    expect(searchConditions(index, "aphasia", 1)).toHaveLength(1);
  });
});

describe("buildSnippet", () => {
  it("cuts around the first matching word, at word boundaries", () => {
    const text = `${"lorem ".repeat(40)}the dysarthria is mild ${"ipsum ".repeat(40)}`;
    const snippet = buildSnippet(text, ["dysarthria"]);
    expect(snippet).toMatch(/^….*dysarthria is mild.*…$/);
    expect(snippet.length).toBeLessThan(200);
    expect(snippet).not.toMatch(/ …|… /);
  });
  it("falls back to the start of the text when only the name matched", () => {
    expect(buildSnippet("Short overview text.", ["absent"])).toBe("Short overview text.");
  });
});

describe("the shipped index", () => {
  const index = conditionSearchIndex();
  it("is built once and covers every condition", () => {
    expect(conditionSearchIndex()).toBe(index);
    expect(index.docs).toHaveLength(listConditions().length);
  });
  it("puts conditions named by the query first", () => {
    const hits = searchConditions(index, "apraxia", 10);
    expect(hits[0]!.name).toMatch(/apraxia/i);
    expect(hits[0]!.snippet.toLowerCase()).toContain("apraxia");
    const scores = hits.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(searchConditions(index, "down syndrome", 3)[0]!.id).toBe("down-syndrome");
    expect(searchConditions(index, "F84.0", 3)[0]!.id).toBe("autism-spectrum-disorder");
    expect(searchConditions(index, "6a02", 3)[0]!.id).toBe("autism-spectrum-disorder");
  });
});
