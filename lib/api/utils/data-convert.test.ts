import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { GatewayError } from "../../errors.ts";
import { convertData, parseData, type DataFormat } from "./data-convert.ts";

const record = { name: "Ada", year: 1843, tags: ["math", "engines"], active: true };

describe("convertData", () => {
  it("round-trips an object through every format that can hold it", () => {
    for (const format of ["json", "yaml", "toml"] as const) {
      const text = convertData(record, "json", format);
      expect(parseData(text, format)).toEqual(record);
    }
  });

  it("converts yaml to json, pretty or compact", () => {
    expect(convertData("a: 1\nb: [x, y]\n", "yaml", "json", false)).toBe('{"a":1,"b":["x","y"]}');
    expect(convertData("a: 1", "yaml", "json", true)).toBe('{\n  "a": 1\n}');
  });

  it("reads CSV with a header row and typed values, and writes it back", () => {
    const csv = "name,age\nAda,36\nAlan,41\n";
    expect(parseData(csv, "csv")).toEqual([
      { name: "Ada", age: 36 },
      { name: "Alan", age: 41 },
    ]);
    expect(convertData(csv, "csv", "csv")).toBe("name,age\nAda,36\nAlan,41");
    expect(YAML.parse(convertData(csv, "csv", "yaml"))).toEqual([
      { name: "Ada", age: 36 },
      { name: "Alan", age: 41 },
    ]);
  });

  it("converts XML with attributes both ways", () => {
    const xml = '<book id="7"><title>Dune</title><year>1965</year></book>';
    const json = JSON.parse(convertData(xml, "xml", "json"));
    expect(json).toEqual({ book: { "@_id": 7, title: "Dune", year: 1965 } });
    expect(parseData(convertData(json, "json", "xml"), "xml")).toEqual(json);
    expect(convertData([1, 2], "json", "xml", false)).toBe("<root><item>1</item><item>2</item></root>");
  });

  it("refuses impossible conversions with the reason", () => {
    expect(() => convertData({ a: { b: 1 } }, "json", "csv")).toThrow(/field 'a' in row 1 is nested/);
    expect(() => convertData([1, 2], "json", "toml")).toThrow(/table/);
    expect(() => convertData(["x"], "json", "csv")).toThrow(/row 1 is not an object/);
  });

  it("reports unparsable input as a 400 naming the format", () => {
    for (const [text, format] of [
      ["{oops", "json"],
      ["a: [", "yaml"],
      ["a = ", "toml"],
      ["<a><b></a>", "xml"],
      ['a,b\n"x,1', "csv"],
    ] as const) {
      try {
        parseData(text, format);
        expect.unreachable(`${format} should fail`);
      } catch (err) {
        expect(err).toBeInstanceOf(GatewayError);
        expect((err as GatewayError).status).toBe(400);
        expect((err as Error).message).toContain(`not valid ${format}`);
      }
    }
  });

  it("refuses input nested deeper than 100 levels, as a value or as text in each format, with a 400 naming the limit", () => {
    const depth = (levels: number) => JSON.parse("[".repeat(levels) + "]".repeat(levels)) as unknown;
    expect(convertData(depth(100), "json", "xml")).toContain("<item>");
    const texts: Array<[string, DataFormat]> = [
      ["[".repeat(10_000) + "]".repeat(10_000), "json"],
      ["[".repeat(10_000) + "]".repeat(10_000), "yaml"],
      [Array.from({ length: 3000 }, (_, i) => `${" ".repeat(i)}- `).join("\n"), "yaml"],
      ["<a>".repeat(10_000) + "</a>".repeat(10_000), "xml"],
      ["a = " + "[".repeat(10_000) + "]".repeat(10_000), "toml"],
    ];
    const inputs: Array<[unknown, DataFormat]> = [[depth(101), "json"], [depth(10_000), "json"], ...texts];
    for (const [data, from] of inputs) {
      for (const to of ["json", "yaml", "xml"] as const) {
        expect(() => convertData(data, from, to), `${from} → ${to}`).toThrow(/nested too deeply: at most 100 levels/);
      }
    }
  });
});
