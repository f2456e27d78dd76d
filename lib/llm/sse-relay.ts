import { createParser } from "eventsource-parser";
import type { ChatPart } from "./chat-types.ts";

/** A decoded part, or the provider's failure (which the reader turns into a thrown error). */
export type DecodedPart = ChatPart | { type: "error"; message: string };

// One event is one chunk of a few hundred bytes; a provider buffering megabytes into one is broken
// (or hostile), and the parser would otherwise hold all of it.
const MAX_EVENT_CHARS = 1 << 20;

type Chunk = {
  model?: unknown;
  error?: { message?: unknown } | string;
  usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null;
  choices?: Array<{ finish_reason?: string | null; delta?: { content?: unknown; refusal?: unknown } | null }>;
};

/** The text of a delta's `content`: a string, or (Mistral's thinking models) typed parts of which `text` ones count. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const part of content as Array<{ type?: unknown; text?: unknown }>)
    if (part?.type === "text" && typeof part.text === "string") text += part.text;
  return text;
}

/**
 * Reads OpenAI Chat Completions server-sent events (every OpenAI-compatible provider's stream) into
 * the parts the gateway relays, the way the AI SDK's providers read them: the first chunk's `model`,
 * non-empty `content` and `refusal` deltas as text (reasoning deltas are not relayed), the `usage`
 * chunk (`stream_options.include_usage`), an `error` chunk as a failure. `[DONE]` carries nothing:
 * the stream is finished when the body ends, and only if a `finish_reason` came, so a connection cut
 * mid-answer is a failure, not a short answer.
 */
export function createChunkDecoder(emit: (part: DecodedPart) => void): { feed(text: string): void; end(): void } {
  let modelSeen = false;
  let finishReason = false;
  let failed = false;
  let prompt = 0;
  let completion = 0;
  const fail = (message: string) => {
    failed = true;
    emit({ type: "error", message });
  };
  const onData = (data: string) => {
    if (failed || data === "[DONE]") return;
    let chunk: Chunk | null;
    try {
      chunk = JSON.parse(data) as Chunk | null;
    } catch {
      chunk = null;
    }
    if (typeof chunk !== "object" || chunk === null)
      return fail(`sent an event that is not a JSON object: ${data.slice(0, 100)}`);
    if (chunk.error)
      return fail(typeof chunk.error === "string" ? chunk.error : String(chunk.error.message ?? "error event"));
    if (!modelSeen && typeof chunk.model === "string") {
      modelSeen = true;
      emit({ type: "model", id: chunk.model });
    }
    if (chunk.usage) {
      prompt = chunk.usage.prompt_tokens ?? 0;
      completion = chunk.usage.completion_tokens ?? 0;
    }
    const choice = chunk.choices?.[0];
    if (!choice) return;
    if (choice.finish_reason != null) finishReason = true;
    const text =
      contentText(choice.delta?.content) + (typeof choice.delta?.refusal === "string" ? choice.delta.refusal : "");
    if (text) emit({ type: "text", text });
  };
  const parser = createParser({
    onEvent: (e) => onData(e.data),
    onError: (e) => {
      if (e.type === "max-buffer-size-exceeded" && !failed) fail("sent an event larger than 1 MB");
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  return {
    feed(text) {
      if (!failed) parser.feed(text);
    },
    end() {
      if (failed) return;
      if (!finishReason) return fail("ended the stream without a finish reason");
      emit({
        type: "finish",
        usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
      });
    },
  };
}
