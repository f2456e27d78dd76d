import { describe, expect, it } from "vitest";
import { findDataset, troveCatalogue } from "./catalogue.ts";
import { datasetRows, pageRows, parseDatasetText } from "./rows.ts";

describe("trove rows", () => {
  it("parses CSV with a header row into typed records", () => {
    expect(parseDatasetText("a,b,c\n1,x,true\n2.5,,false\n", "csv")).toEqual([
      { a: 1, b: "x", c: true },
      { a: 2.5, b: null, c: false },
    ]);
  });

  it("types a CSV column as a whole, so codes keep their leading zeros and letters", () => {
    expect(
      parseDatasetText("zip,hex,word,n,flag\n00501,1F600,true,1e3,TRUE\n90210,26E9,abandon,-0.5,false\n", "csv"),
    ).toEqual([
      { zip: "00501", hex: "1F600", word: "true", n: 1000, flag: true },
      { zip: "90210", hex: "26E9", word: "abandon", n: -0.5, flag: false },
    ]);
  });

  it("declares each field's type from all its values: CSV columns exactly, JSON fields string only when mixed", () => {
    const mismatches = new Set<string>();
    for (const entry of troveCatalogue().entries) {
      const seen = new Map<string, Set<string>>();
      for (const row of datasetRows(entry)) {
        for (const [field, value] of Object.entries(row))
          if (value !== null) seen.set(field, (seen.get(field) ?? new Set()).add(typeof value));
      }
      for (const { name, type } of entry.fields) {
        const types = [...(seen.get(name) ?? [])];
        const expected = types.length === 1 ? types[0] : "string";
        if (type !== expected || (entry.format === "csv" && types.length > 1))
          mismatches.add(`${entry.id}.${name}: declared ${type}, holds ${types.join("/") || "only nulls"}`);
      }
    }
    expect([...mismatches]).toEqual([]);
  });

  it("keeps the codes of shipped datasets as written", () => {
    const zip = datasetRows(findDataset("geographic", "us-zipcodes"))[0]!;
    expect(zip).toMatchObject({ zip_code: "00501", city: "Holtsville" });
    const hexcodes = datasetRows(findDataset("accessibility", "openmoji-aac-symbols")).map((r) => r.hexcode);
    expect(hexcodes).toContain("26E9");
    expect(hexcodes.every((h) => typeof h === "string")).toBe(true);
    expect(datasetRows(findDataset("linguistic", "afinn-111")).some((r) => r.word === "true")).toBe(true);
    expect(datasetRows(findDataset("geographic", "us-airports")).some((r) => r.iata === "0E0")).toBe(true);
  });

  it("accepts JSON arrays and refuses other JSON", () => {
    expect(parseDatasetText('[{"a":1}]', "json")).toEqual([{ a: 1 }]);
    expect(() => parseDatasetText('{"a":1}', "json")).toThrow(/arrays/);
  });

  it("pages rows with limit and offset and reports the total", () => {
    const rows = [1, 2, 3, 4, 5];
    expect(pageRows(rows, 2, 0)).toEqual({ total: 5, data: [1, 2] });
    expect(pageRows(rows, 2, 4)).toEqual({ total: 5, data: [5] });
    expect(pageRows(rows, 2, 9)).toEqual({ total: 5, data: [] });
  });

  it("reads every shipped dataset with the row count and fields the catalogue records", () => {
    for (const entry of troveCatalogue().entries) {
      const rows = datasetRows(entry);
      expect(rows.length, entry.id).toBe(entry.rows);
      expect(Object.keys(rows[0]!), entry.id).toEqual(
        expect.arrayContaining(entry.fields.slice(0, 3).map((f) => f.name)),
      );
    }
  });

  it("types CSV numbers as numbers", () => {
    const [first] = datasetRows(findDataset("economic_housing", "boston-house-prices"));
    expect(first).toMatchObject({ crim: 0.00632, medv: 24 });
  });

  it("scales Factbook amounts by their own unit, not a later year's", () => {
    const rows = datasetRows(findDataset("economic_billionaires", "stock-market-value")) as Array<{
      country: string;
      market_value_usd: number;
    }>;
    const largest = [...rows].sort((a, b) => b.market_value_usd - a.market_value_usd)[0]!;
    expect(largest).toEqual(
      expect.objectContaining({ country: "United States", market_value_usd: 18_670_000_000_000 }),
    );
    expect(rows.find((r) => r.country === "Spain")!.market_value_usd).toBe(995_100_000_000);
  });
});
