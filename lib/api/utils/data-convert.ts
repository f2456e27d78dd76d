import Papa from "papaparse";
import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
import { XMLBuilder, XMLParser, XMLValidator } from "fast-xml-parser";
import YAML from "yaml";
import { GatewayError } from "../../errors.ts";
import type { DATA_FORMATS } from "./formats.ts";
import { assertNestingAllowed, MAX_DEPTH, tooDeep, yamlDepthBound } from "./nesting-depth.ts";

export type DataFormat = (typeof DATA_FORMATS)[number];

/** Parses `data` in `from` (an object is taken as already parsed) and writes it as `to`. */
export function convertData(data: unknown, from: DataFormat, to: DataFormat, pretty = true): string {
  const value = typeof data === "string" ? parseData(data, from) : data;
  assertNestingAllowed(value);
  return serialiseData(value, to, pretty);
}

const XML_READ = {
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: true,
  parseAttributeValue: true,
  maxNestedTags: MAX_DEPTH,
};

/** The parsers' own depth refusals (and YAML's stack overflow, which it reports as a parse error). */
const DEPTH_FAILURE = /Maximum call stack size exceeded|Maximum nested tags exceeded|excessively nested/;

export function parseData(text: string, format: DataFormat): unknown {
  try {
    switch (format) {
      case "json":
        return JSON.parse(text);
      case "yaml":
        if (yamlDepthBound(text) > MAX_DEPTH) throw tooDeep();
        return YAML.parse(text);
      case "toml":
        return parseToml(text, { maxDepth: MAX_DEPTH });
      case "xml": {
        const valid = XMLValidator.validate(text);
        if (valid !== true) throw new Error(`${valid.err.msg} (line ${valid.err.line})`);
        return new XMLParser(XML_READ).parse(text);
      }
      case "csv": {
        const parsed = Papa.parse<Record<string, unknown>>(text.trim(), {
          header: true,
          dynamicTyping: true,
          skipEmptyLines: true,
        });
        const fatal = parsed.errors.find((e) => e.type !== "Delimiter");
        if (fatal) throw new Error(`${fatal.message} (row ${(fatal.row ?? 0) + 1})`);
        return parsed.data;
      }
    }
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    if (err instanceof RangeError || DEPTH_FAILURE.test((err as Error).message)) throw tooDeep();
    throw new GatewayError(400, `data is not valid ${format}: ${(err as Error).message}`);
  }
}

export function serialiseData(value: unknown, format: DataFormat, pretty: boolean): string {
  switch (format) {
    case "json":
      return JSON.stringify(value, null, pretty ? 2 : undefined);
    case "yaml":
      return YAML.stringify(value, { indent: 2 });
    case "toml":
      if (!isRecord(value))
        throw new GatewayError(400, "cannot convert to toml: TOML needs a table (an object) at the top level");
      try {
        return stringifyToml(value);
      } catch (err) {
        throw new GatewayError(400, `cannot convert to toml: ${(err as Error).message}`);
      }
    case "xml": {
      const root =
        isRecord(value) && Object.keys(value).length === 1
          ? value
          : { root: Array.isArray(value) ? { item: value } : value };
      return new XMLBuilder({
        ignoreAttributes: false,
        attributeNamePrefix: "@_",
        format: pretty,
        suppressEmptyNode: true,
      }).build(root);
    }
    case "csv":
      return Papa.unparse(csvRows(value), { newline: "\n" });
  }
}

/** CSV holds a flat table: an array of records (or one record) whose values are all scalars. */
function csvRows(value: unknown): Record<string, unknown>[] {
  const rows = Array.isArray(value) ? value : [value];
  return rows.map((row, i) => {
    if (!isRecord(row))
      throw new GatewayError(
        400,
        `cannot convert to csv: row ${i + 1} is not an object; CSV needs an array of flat records`,
      );
    for (const [field, v] of Object.entries(row)) {
      if (v !== null && typeof v === "object") {
        throw new GatewayError(
          400,
          `cannot convert to csv: field '${field}' in row ${i + 1} is nested; CSV needs flat records`,
        );
      }
    }
    return row;
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
