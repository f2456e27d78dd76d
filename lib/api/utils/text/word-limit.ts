/**
 * A summary's `max_words` is a promise to the caller, and models overshoot word counts: the answer is
 * cut here, at a sentence boundary for a paragraph and by whole bullets for a list, so that what is
 * left reads as written. Only when the first sentence (or bullet) alone is too long is it cut mid-way,
 * at a word, with an ellipsis.
 */

export const SUMMARY_STYLES = ["paragraph", "bullet"] as const;
export type SummaryStyle = (typeof SUMMARY_STYLES)[number];

const sentences = new Intl.Segmenter("en", { granularity: "sentence" });

/** Words: whitespace-separated runs holding a letter or digit (a bullet's "-" is not a word). */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** The first `max` words of text, with an ellipsis: for a single sentence longer than the budget. */
function firstWords(text: string, max: number): string {
  const words = text.trim().split(/\s+/);
  return words.length <= max
    ? text.trim()
    : words
        .slice(0, max)
        .join(" ")
        .replace(/[,;:.!?]*$/, "") + "…";
}

/** The longest run of whole sentences from the start within max words (else the first sentence, cut). */
export function cutAtSentence(text: string, max: number): string {
  const trimmed = text.trim();
  if (countWords(trimmed) <= max) return trimmed;
  let words = 0;
  let end = 0;
  for (const { segment, index } of sentences.segment(trimmed)) {
    words += countWords(segment);
    if (words > max) break;
    end = index + segment.length;
  }
  return end > 0 ? trimmed.slice(0, end).trim() : firstWords(trimmed, max);
}

const BULLET = /^\s*(?:[-*•‣–]|\d{1,3}[.)])\s+/;

/**
 * A list answer's bullets: its non-empty lines without their markers; an answer of a single line
 * (the model wrote a paragraph) gives one bullet per sentence.
 */
export function bulletsOf(text: string): string[] {
  const lines = text
    .split("\n")
    .map((l) => l.replace(BULLET, "").trim())
    .filter(Boolean);
  if (lines.length !== 1) return lines;
  return [...sentences.segment(lines[0]!)].map((s) => s.segment.trim()).filter(Boolean);
}

/** The bullets as "- " lines, whole bullets dropped from the end while over max words. */
export function cutBullets(bullets: readonly string[], max: number): string {
  const kept: string[] = [];
  let words = 0;
  for (const b of bullets) {
    const n = countWords(b);
    if (words + n > max) {
      if (kept.length === 0) kept.push(cutAtSentence(b, max));
      break;
    }
    kept.push(b);
    words += n;
  }
  return kept.map((b) => `- ${b}`).join("\n");
}

/** The model's answer within max words, in the style asked for. */
export function limitWords(answer: string, max: number, style: SummaryStyle): string {
  return style === "bullet" ? cutBullets(bulletsOf(answer), max) : cutAtSentence(answer, max);
}
