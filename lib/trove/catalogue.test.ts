import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors.ts";
import { buildTroveIndex, findDataset, listCategory, troveCatalogue, TROVE_DIR } from "./catalogue.ts";

const CATEGORIES = [
  "accessibility",
  "attention",
  "cultural",
  "environmental",
  "geographic",
  "healthcare",
  "linguistic",
  "quirky",
  "wild",
  "urban",
  "economic_billionaires",
  "economic_boards",
  "economic_housing",
  "retail",
  "cms",
];

describe("trove catalogue", () => {
  const { entries } = troveCatalogue();

  it("has at least 45 datasets spread over all 15 categories, none empty", () => {
    expect(entries.length).toBeGreaterThanOrEqual(45);
    const index = buildTroveIndex();
    expect(Object.keys(index.categories).sort()).toEqual([...CATEGORIES].sort());
    for (const name of CATEGORIES) expect(index.categories[name]!.dataset_count).toBeGreaterThan(0);
    expect(index.total_datasets).toBe(entries.length);
    expect(Object.values(index.categories).reduce((s, c) => s + c.dataset_count, 0)).toBe(entries.length);
  });

  it("describes every dataset with a licence and a source, and its file exists with the recorded size", () => {
    const ids = new Set<string>();
    for (const d of entries) {
      expect(ids.has(d.id)).toBe(false);
      ids.add(d.id);
      expect(d.licence.length).toBeGreaterThan(2);
      expect(d.source.package.length).toBeGreaterThan(1);
      expect(d.source.url).toMatch(/^https?:\/\//);
      expect(d.file).toBe(`${d.category}/${d.id}.${d.format}`);
      expect(fs.statSync(path.join(TROVE_DIR, d.file)).size).toBe(d.size);
      expect(d.rows).toBeGreaterThan(0);
      expect(d.fields.length).toBeGreaterThan(0);
    }
  });

  it("keeps the shipped data under 25 MB", () => {
    expect(entries.reduce((s, d) => s + d.size, 0)).toBeLessThan(25 * 1024 * 1024);
  });

  it("finds datasets by catalogue name only; anything else is a 404", () => {
    expect(findDataset("wild", "palmer-penguins").format).toBe("json");
    expect(listCategory("cms").map((d) => d.id)).toContain("us-births-cdc-1994-2003");
    for (const [cat, id] of [
      ["wild", "palmer-penguins.json"],
      ["wild", "../catalogue"],
      ["nope", "palmer-penguins"],
      ["wild", "constructor"],
      ["__proto__", "x"],
    ] as const) {
      const thrown = (() => {
        try {
          findDataset(cat, id);
        } catch (err) {
          return err;
        }
      })();
      expect(thrown).toBeInstanceOf(GatewayError);
      expect((thrown as GatewayError).status).toBe(404);
    }
  });
});
