import zlib from "node:zlib";
import { GatewayError } from "../../errors.ts";

/**
 * How much text an SVG may ask librsvg to lay out. Its layout of one text element is quadratic in the
 * element's length (10,000 characters in one <text> took 5 s, 100,000 minutes), so the bound is on the
 * sum of each element's length squared: one element of 4,000 characters (under a second), or 16 of
 * 1,000, or 1,600 of 100.
 */
export const MAX_SVG_TEXT_COST = 4_000 ** 2;
/** An SVGZ is read uncompressed up to this, as librsvg would read it. */
const MAX_SVG_BYTES = 64 * 1024 * 1024;

const PREDEFINED = new Set(["amp", "lt", "gt", "quot", "apos"]);
// One token at a time, each alternative linear however the input is broken off (an unclosed comment,
// CDATA or internal subset runs to the end; a tag's name is matched whole, so no split of it is retried).
const TOKEN =
  /<!\[CDATA\[([\s\S]*?)(?:\]\]>|$)|<!--[\s\S]*?(?:-->|$)|<!DOCTYPE(?:[^[>]|\[[\s\S]*?(?:\]|$))*>?|<\?[\s\S]*?(?:\?>|$)|<(\/?)(?:[\w.-]+:)?([\w.-]+)(?:[^\w.<>-][^<>]*?)??(\/?)>|&([^;\s&<]*);|[^<&]+|[<&]/g;
const ENTITY = /<!ENTITY\s+([\w:.-]+)\s+(?:"([^"]*)"|'([^']*)')/g;

/**
 * The length of each text element of an SVG (a text's tspans included) as librsvg reads it: character
 * data and CDATA, with the entities the document declares expanded. Comments and tags count nothing.
 */
export function svgTextLengths(svg: string): number[] {
  const entityLength = expandedLengths(svg);
  const lengths: number[] = [];
  let current: number | undefined;
  for (const [token, cdata, closing, name, selfClosing, entity] of svg.matchAll(TOKEN)) {
    if (name !== undefined) {
      if (name !== "text") continue;
      if (closing && current !== undefined) {
        lengths.push(current);
        current = undefined;
      } else if (!closing && !selfClosing) current = 0;
    } else if (current === undefined || token.startsWith("<!") || token.startsWith("<?")) {
      if (cdata !== undefined && current !== undefined) current += cdata.length;
    } else if (entity !== undefined) current += entityLength(entity);
    else current += token.length;
  }
  if (current !== undefined) lengths.push(current);
  return lengths;
}

/** Refuses with 413 an SVG (or SVGZ) whose text would take longer to lay out than a job may take. */
export function checkSvgText(input: Buffer): void {
  let bytes = input;
  if (input[0] === 0x1f && input[1] === 0x8b) {
    try {
      bytes = zlib.gunzipSync(input, { maxOutputLength: MAX_SVG_BYTES });
    } catch {
      throw new GatewayError(413, `image is an SVGZ larger than ${MAX_SVG_BYTES / 1024 / 1024} MB uncompressed`);
    }
  }
  const lengths = svgTextLengths(bytes.toString("utf8"));
  const cost = lengths.reduce((sum, n) => sum + n * n, 0);
  if (cost > MAX_SVG_TEXT_COST) {
    throw new GatewayError(
      413,
      `image is an SVG with more text than the server lays out: ${lengths.length} text elements, the longest of ${Math.max(...lengths).toLocaleString("en-US")} characters (at most 4,000 in one, fewer when several are long)`,
    );
  }
}

/** Each declared entity's length once expanded (nested references followed; a cycle or an undeclared one counts nothing). */
function expandedLengths(svg: string): (name: string) => number {
  const values = new Map<string, string>();
  for (const [, name, double, single] of svg.matchAll(ENTITY)) {
    if (!values.has(name!)) values.set(name!, double ?? single ?? "");
  }
  const known = new Map<string, number>();
  const length = (name: string, seen: Set<string>): number => {
    if (name.startsWith("#") || PREDEFINED.has(name)) return 1;
    const cached = known.get(name);
    if (cached !== undefined) return cached;
    const value = values.get(name);
    if (value === undefined || seen.has(name)) return 0;
    seen.add(name);
    let total = 0;
    for (const [token, , , , , entity] of value.matchAll(TOKEN)) {
      total += entity !== undefined ? length(entity, seen) : token.startsWith("<") ? 0 : token.length;
    }
    seen.delete(name);
    known.set(name, total);
    return total;
  };
  return (name) => length(name, new Set());
}
