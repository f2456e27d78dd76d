import { GatewayError } from "../../../errors.ts";
import type { ChatRequest } from "../../../llm/chat.ts";
import type { CompletionResponse, Usage } from "../../../llm/chat-types.ts";
import { pool } from "../../../abortable.ts";
import { splitIntoChunks } from "./chunks.ts";
import { countWords, limitWords, type SummaryStyle } from "./word-limit.ts";

/** A part: ≈3,000 tokens at ~4 characters a token, small enough for any provider's context with room to answer. */
export const CHUNK_CHARS = 12_000;
/** Parts summarised at once: a 200,000-character text is ~17 parts, so ~5 rounds. */
const CONCURRENCY = 4;
/** Words asked of each part's summary: enough to carry the part, few enough that all of them fit one call. */
const PART_WORDS = { min: 60, max: 400 };

export type SummaryRequest = {
  text: string;
  maxWords: number;
  style: SummaryStyle;
  /** One model call (a part's summary, or their combination): the caller's model, routed as it chooses. */
  complete: (req: ChatRequest) => Promise<CompletionResponse>;
  signal?: AbortSignal;
};

export type Summary = {
  summary: string;
  word_count: number;
  chunks: number;
  provider: string;
  model: string;
  usage: Usage;
};

const SYSTEM =
  "You summarise text faithfully: keep its main points, names and figures, add nothing that is not in it, " +
  "and answer with the summary only (no title, no preamble).";

const shape = (style: SummaryStyle) =>
  style === "bullet"
    ? "as a list of bullets, one per line, each starting with '- '"
    : "as one paragraph of plain prose (no list, no headings)";

/**
 * Summarises text (holding at least one non-space character) in at most maxWords words. A text of one part is one call; a longer one is split
 * (splitIntoChunks), its parts summarised at most CONCURRENCY at a time, and the part summaries
 * combined by one more call. The answer is then held to maxWords (limitWords). Usage is the sum over
 * every call; the model named is the one that wrote the final summary.
 */
export async function summarize(req: SummaryRequest): Promise<Summary> {
  const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  let provider = "";
  let model = "";
  const ask = async (prompt: string, words: number): Promise<string> => {
    const reply = await req.complete({
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: prompt },
      ],
      // ~1.3 tokens a word, with room for bullets and a model that overshoots (cut afterwards).
      max_tokens: words * 2 + 200,
    });
    usage.prompt_tokens += reply.usage.prompt_tokens;
    usage.completion_tokens += reply.usage.completion_tokens;
    usage.total_tokens += reply.usage.total_tokens;
    ({ provider, model } = reply);
    return reply.content;
  };

  const chunks = splitIntoChunks(req.text, CHUNK_CHARS);
  const goal = `in at most ${req.maxWords} words, ${shape(req.style)}`;
  let answer: string;
  if (chunks.length === 1) {
    answer = await ask(`Summarise the text below ${goal}.\n\nText:\n${chunks[0]}`, req.maxWords);
  } else {
    const n = chunks.length;
    const partWords = Math.min(PART_WORDS.max, Math.max(PART_WORDS.min, Math.ceil((2 * req.maxWords) / n)));
    const parts = await pool(chunks, CONCURRENCY, req.signal ?? new AbortController().signal, (chunk, i) =>
      ask(
        `Part ${i + 1} of ${n} of a longer text. Summarise this part in at most ${partWords} words, as plain ` +
          `prose.\n\nText:\n${chunk}`,
        partWords,
      ),
    );
    answer = await ask(
      `Below are summaries of the ${n} consecutive parts of one text, in order. Combine them into one summary ` +
        `of the whole text ${goal}.\n\n` +
        parts.map((p, i) => `[Part ${i + 1}]\n${p.trim()}`).join("\n\n"),
      req.maxWords,
    );
  }
  const summary = limitWords(answer, req.maxWords, req.style);
  if (!summary) throw new GatewayError(502, `${provider} returned an empty summary`);
  return { summary, word_count: countWords(summary), chunks: chunks.length, provider, model, usage };
}
