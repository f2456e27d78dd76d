// The words check: an operator's terms (words or phrases, matched whole and case-blind) and, when the
// policy asks, profanity and slurs from obscenity's English list, which also catches spelled-around
// variants (leetspeak, look-alike characters, stretched letters). Built once per policy, at start.
import { profanityCheck } from "./profanity.ts";

export type WordsSpec = { terms?: readonly string[]; profanity?: boolean };
export type WordFinding = { kind: "term" | "profanity"; start: number; end: number };

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
  return (text) => {
    const found: WordFinding[] = [];
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
