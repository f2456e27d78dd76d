import { GatewayError } from "../../errors.ts";

/** How many arrays and objects deep a value may nest; deeper input is refused before any conversion. */
export const MAX_DEPTH = 100;

/**
 * Whether `value` nests more than `limit` arrays/objects deep, found with an explicit stack so that
 * the check itself cannot overflow the call stack the way the serialisers do (~200 levels for XML).
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * An upper bound on how deep YAML text nests, from one pass over the characters, for checking before
 * the YAML parser runs: it recurses per level and a stack overflow there can abort the whole process
 * (V8 reports it as a fatal out-of-memory when it lands in a regular expression compile). Flow
 * brackets outside quotes and comments count one level each; block structure counts two per step of
 * indentation and per `-`/`?`/`:` indicator on a line, since a sequence may sit at its parent key's column.
 */
export function yamlDepthBound(text: string): number {
  const indents: number[] = [];
  let max = 0;
  let flow = 0;
  let lineStart = true;
  let indent = 0;
  let indicators = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\n") {
      lineStart = true;
      indent = 0;
      indicators = 0;
      continue;
    }
    if (lineStart) {
      if (ch === " ") {
        indent++;
        continue;
      }
      lineStart = false;
      if (flow === 0 && ch !== "#") {
        while (indents.length && indents[indents.length - 1]! > indent) indents.pop();
        if (!indents.length || indents[indents.length - 1]! < indent) indents.push(indent);
      }
    }
    const prev = i === 0 ? "\n" : text[i - 1]!;
    const next = text[i + 1] ?? "\n";
    const atTokenStart = prev === " " || prev === "\t" || prev === "\n" || "[{,:".includes(prev);
    if (ch === "#" && (prev === " " || prev === "\t" || prev === "\n")) {
      while (i + 1 < text.length && text[i + 1] !== "\n") i++;
    } else if ((ch === '"' || ch === "'") && atTokenStart) {
      i = closingQuote(text, i);
    } else if (ch === "[" || ch === "{") {
      flow++;
    } else if ((ch === "]" || ch === "}") && flow > 0) {
      flow--;
    } else if (
      flow === 0 &&
      (ch === "-" || ch === "?" || ch === ":") &&
      (next === " " || next === "\n" || next === "\t")
    ) {
      indicators++;
    }
    max = Math.max(max, flow + 2 * (indents.length + indicators));
  }
  return max;
}

/** Index of the quote closing the scalar opened at `start` (YAML doubles a single quote to escape it). */
function closingQuote(text: string, start: number): number {
  const quote = text[start]!;
  for (let i = start + 1; i < text.length; i++) {
    if (quote === '"' && text[i] === "\\") i++;
    else if (text[i] === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i;
    }
  }
  return text.length;
}

export const tooDeep = () =>
  new GatewayError(400, `data is nested too deeply: at most ${MAX_DEPTH} levels of arrays and objects`);

/** Refuses a value nested deeper than MAX_DEPTH; checked before a value is copied to a worker, which recurses per level. */
export function assertNestingAllowed(value: unknown): void {
  if (nestsDeeperThan(value, MAX_DEPTH)) throw tooDeep();
}
