// The words check: an operator's terms (words or phrases, matched whole and case-blind), patterns (regular
// expressions, case-blind, refused at load when they could backtrack catastrophically) and, when the
// policy asks, profanity and slurs from obscenity's English list, which also catches spelled-around
// variants (leetspeak, look-alike characters, stretched letters). Built once per policy, at start.
import isSafeRegex from "safe-regex2";
import { profanityCheck } from "./profanity.ts";

export type WordsSpec = { terms?: readonly string[]; patterns?: readonly string[]; profanity?: boolean };
export type WordFinding = { kind: "term" | "pattern" | "profanity"; start: number; end: number };
/** What the words check found in a text, by kind and count. */
export type WordsFound = Partial<Record<WordFinding["kind"], number>>;

/** What was found, as a refusal says it: "terms the policy lists and profanity". */
export const wordsFoundText = (found: WordsFound): string =>
  [
    found.term && "terms the policy lists",
    found.pattern && "text matching the policy's patterns",
    found.profanity && "profanity",
  ]
    .filter(Boolean)
    .join(" and ");

/**
 * Why `source` cannot be a pattern of the words check, or undefined when it can: it must compile (with the
 * `u` flag), match no empty text (it would fire everywhere) and have no nested repetition (safe-regex2's
 * star height of one), so no prompt can make it backtrack for seconds on the request's thread.
 */
export function patternProblem(source: string): string | undefined {
  let compiled: RegExp;
  try {
    compiled = new RegExp(source, "iu");
  } catch (err) {
    return `not a regular expression: ${(err as Error).message}`;
  }
  if (compiled.test("")) return "matches empty text, so it would fire on every prompt";
  if (!isSafeRegex(compiled)) return "nested repetition (such as (a+)+) could take exponential time on some input";
  return undefined;
}

const escape = (term: string) => term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");

export type WordsMatcher = (text: string) => WordFinding[];

export function wordsMatcher(spec: WordsSpec): WordsMatcher {
  const terms = (spec.terms ?? []).map((t) => t.trim()).filter(Boolean);
  // Longest first, so "credit card number" wins over "card"; \b only where the term starts or ends with a word character.
  const pattern = terms.length
    ? new RegExp(
        [...terms]
          .sort((a, b) => b.length - a.length)
          .map((t) => `${/^\w/.test(t) ? "\\b" : ""}${escape(t)}${/\w$/.test(t) ? "\\b" : ""}`)
          .join("|"),
        "giu",
      )
    : undefined;
  const patterns = (spec.patterns ?? []).map((source) => new RegExp(source, "giu"));
  return (text) => {
    const found: WordFinding[] = [];
    for (const p of patterns) {
      p.lastIndex = 0;
      for (let m = p.exec(text); m; m = p.exec(text)) {
        found.push({ kind: "pattern", start: m.index, end: m.index + m[0].length });
        // A match of no characters (an alternative that can be empty) would not move lastIndex on.
        if (m[0].length === 0) p.lastIndex++;
      }
    }
    if (pattern) {
      pattern.lastIndex = 0;
      for (let m = pattern.exec(text); m; m = pattern.exec(text))
        found.push({ kind: "term", start: m.index, end: m.index + m[0].length });
    }
    const check = spec.profanity ? profanityCheck() : undefined;
    if (check?.any(text))
      for (const m of check.matches(text)) found.push({ kind: "profanity", start: m.startIndex, end: m.endIndex + 1 });
    // The dataset may match one word by two of its patterns: one finding a place.
    return found
      .sort((a, b) => a.start - b.start || b.end - a.end)
      .filter((f, i, all) => i === 0 || f.start >= all[i - 1]!.end);
  };
}

/** `text` with each finding masked (overlaps merged): what a redacting policy sends instead. */
export function maskWords(text: string, findings: readonly WordFinding[]): string {
  let out = "";
  let at = 0;
  for (const f of findings) {
    if (f.end <= at) continue;
    out += text.slice(at, Math.max(at, f.start)) + "[REDACTED]";
    at = f.end;
  }
  return out + text.slice(at);
}
