import { z } from "zod";

/** POST /v1/aac/sentence, Form B (SPEC "AAC sentence result"); extra fields pass through. */
export const AacSymbol = z.object({
  keyword: z.string(),
  icon_url: z.string(),
  source: z.string(),
  license: z.string().default(""),
  score: z.number().default(0),
  author: z.string().optional(),
  attribution: z.string().optional(),
});
export type AacSymbol = z.infer<typeof AacSymbol>;

export const AacSentence = z.object({
  sentence: z.string(),
  words: z.array(z.object({ word: z.string(), matched: z.boolean(), symbols: z.array(AacSymbol) })),
  statistics: z.object({ total_words: z.number(), matched: z.number(), unmatched: z.number(), coverage: z.number() }),
  sources: z.array(z.string()).default([]),
  language: z.string().default("en"),
});
export type AacSentence = z.infer<typeof AacSentence>;

export const SOURCE_CHOICES = [
  { value: "local", label: "Local symbols" },
  { value: "pictolib", label: "Pictogram library" },
  { value: "local,pictolib", label: "Both" },
] as const;

export const SentenceRequest = z.object({
  sentence: z.string().trim().min(1, "Type a sentence first").max(500),
  sources: z.enum(SOURCE_CHOICES.map((s) => s.value) as ["local", "pictolib", "local,pictolib"]),
});

/** Where each card of the exported strip goes: a fixed cell size, wrapping after `perRow` cards. */
export function stripLayout(count: number, { cell = 160, gap = 16, label = 36, perRow = 6 } = {}) {
  const columns = Math.max(1, Math.min(count, perRow));
  const rows = Math.max(1, Math.ceil(count / perRow));
  const cardHeight = cell + label;
  return {
    width: gap + columns * (cell + gap),
    height: gap + rows * (cardHeight + gap),
    cards: Array.from({ length: count }, (_, i) => ({
      x: gap + (i % perRow) * (cell + gap),
      y: gap + Math.floor(i / perRow) * (cardHeight + gap),
      size: cell,
      labelY: gap + Math.floor(i / perRow) * (cardHeight + gap) + cell + label * 0.7,
    })),
  };
}
