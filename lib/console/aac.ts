import { z } from "zod";
import type { Answer, Schemas } from "../client/index.ts";

/** POST /v1/aac/sentence, Form B (SPEC "AAC sentence result"): what the console reads, as the API documents it. */
export type AacSymbol = Schemas["AacSymbol"];
export type AacSentence = Schemas["AacSentenceResult"];

/** The builder asks with Form B (a sentence), so the answer is Form B: word by word, with coverage. */
export function formB(answer: Answer<"post", "/v1/aac/sentence">): AacSentence {
  if (!("words" in answer)) throw new Error("the server answered in Form A (symbols without words)");
  return answer;
}

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
