import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  CATEGORIES,
  ICD10_CM,
  ICD11_MMS,
  SECTIONS,
  findCondition,
  listConditions,
  loadConditionFolder,
  parseConditionDocument,
} from "./conditions.ts";

const EXPECTED_COUNT = 51;
const DIR = path.join(process.cwd(), "lib", "api", "clinical", "data", "conditions");

const doc = (
  front: string,
  body = Object.values(SECTIONS)
    .map((h) => `## ${h}\n\nText for ${h}.`)
    .join("\n\n"),
) => `---\n${front}\n---\n\n# Name\n\n${body}\n`;
const FRONT =
  "id: 1\nslug: test-condition\nname: Test condition\ncategory: developmental\nicd10: F80.0\nicd11: 6A01.0\naac_strategies:\n  - Signs";

describe("the shipped condition documents", () => {
  const conditions = listConditions();

  it(`are ${EXPECTED_COUNT} files, one condition each, ids 1..${EXPECTED_COUNT} in order`, () => {
    expect(fs.readdirSync(DIR).filter((f) => f.endsWith(".md"))).toHaveLength(EXPECTED_COUNT);
    expect(conditions.map((c) => c.id)).toEqual(Array.from({ length: EXPECTED_COUNT }, (_, i) => i + 1));
  });

  it("have unique slugs that match their file names, and unique names", () => {
    expect(new Set(conditions.map((c) => c.slug)).size).toBe(EXPECTED_COUNT);
    expect(new Set(conditions.map((c) => c.name.toLowerCase())).size).toBe(EXPECTED_COUNT);
    const files = fs
      .readdirSync(DIR)
      .filter((f) => f.endsWith(".md"))
      .sort();
    expect(conditions.map((c) => `${c.slug}.md`).sort()).toEqual(files);
  });

  it("have every section, non-empty, and a title that is the name", () => {
    for (const c of conditions) {
      for (const key of Object.keys(SECTIONS) as Array<keyof typeof SECTIONS>) {
        expect(c.sections[key].length, `${c.slug} ${key}`).toBeGreaterThan(key === "codes" ? 40 : 150);
      }
      expect(c.markdown.startsWith(`# ${c.name}\n`), c.slug).toBe(true);
      expect(c.aac_strategies.length, c.slug).toBeGreaterThan(0);
    }
  });

  it("carry well-formed ICD-10-CM and ICD-11 codes, repeated in the codes section", () => {
    for (const c of conditions) {
      expect(c.icd10, c.slug).toMatch(/^[A-Z]\d{2}(\.\w{1,4})?$/);
      expect(c.sections.codes, c.slug).toContain(`ICD-10-CM: ${c.icd10} `);
      if (c.icd11 === null) expect(c.sections.codes, c.slug).toMatch(/ICD-11: no (single|separate) code/);
      else {
        expect(c.icd11, c.slug).toMatch(ICD11_MMS);
        expect(c.sections.codes, c.slug).toContain(`ICD-11: ${c.icd11} `);
      }
    }
  });

  it("use every category", () => {
    expect(new Set(conditions.map((c) => c.category))).toEqual(new Set(CATEGORIES));
  });

  it("are found by slug or numeric id, and nothing else", () => {
    expect(findCondition("down-syndrome")?.id).toBe(2);
    expect(findCondition("DOWN-SYNDROME")?.slug).toBe("down-syndrome");
    expect(findCondition("1")?.slug).toBe("autism-spectrum-disorder");
    expect(findCondition(String(EXPECTED_COUNT))).toBeDefined();
    for (const unknown of ["0", String(EXPECTED_COUNT + 1), "01x", "nope", ""])
      expect(findCondition(unknown)).toBeUndefined();
  });
});

describe("parseConditionDocument", () => {
  it("splits the body into its sections", () => {
    const c = parseConditionDocument(doc(FRONT), "t.md");
    expect(c.sections.overview).toBe("Text for Overview.");
    expect(c.sections.codes).toBe("Text for Classification codes.");
    expect(c.icd11).toBe("6A01.0");
  });

  it("refuses a document without front matter, a missing section, or malformed fields", () => {
    expect(() => parseConditionDocument("# Name\n", "a.md")).toThrow(/front matter/);
    expect(() => parseConditionDocument(doc(FRONT, "## Overview\n\nonly"), "b.md")).toThrow(/Symptoms/);
    expect(() => parseConditionDocument(doc(FRONT.replace("F80.0", "F8")), "c.md")).toThrow(/icd10/);
    expect(() => parseConditionDocument(doc(FRONT.replace("6A01.0", "F80.0")), "d.md")).toThrow(/icd11/);
    expect(() => parseConditionDocument(doc(FRONT.replace("developmental", "other")), "e.md")).toThrow(/category/);
    expect(() => parseConditionDocument(doc(FRONT.replace("  - Signs", "")), "f.md")).toThrow(/aac_strategies/);
  });

  it("accepts a null ICD-11 code", () => {
    expect(parseConditionDocument(doc(FRONT.replace("icd11: 6A01.0", "icd11: null")), "g.md").icd11).toBeNull();
  });
});

describe("code formats", () => {
  it("ICD-10-CM", () => {
    for (const ok of ["F84.0", "G10", "S06.9X9A", "G20.A1"]) expect(ok).toMatch(ICD10_CM);
    for (const bad of ["F84.", "f84.0", "F8", "6A02", "S06.9X9AB"]) expect(bad).not.toMatch(ICD10_CM);
  });
  it("ICD-11", () => {
    for (const ok of ["6A02", "LD40.0", "6A01.20", "8D2Z", "MA80.0"]) expect(ok).toMatch(ICD11_MMS);
    for (const bad of ["F84.0", "6A0", "6A02.123", "06A2"]) expect(bad).not.toMatch(ICD11_MMS);
  });
});

describe("loadConditionFolder", () => {
  it("refuses duplicate ids", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clinical-"));
    try {
      fs.writeFileSync(path.join(dir, "a.md"), doc(FRONT));
      fs.writeFileSync(path.join(dir, "b.md"), doc(FRONT.replace("test-condition", "other")));
      expect(() => loadConditionFolder(dir)).toThrow(/duplicate condition id 1/);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });
});
