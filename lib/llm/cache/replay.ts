// A cache hit answered as the asking surface speaks: a whole answer as it is stored (the pivot form,
// which /v1/chat/completions returns as is), or a stream written through the surface's own sink from
// the chunks a provider would have sent, so each SDK reads a hit exactly as it reads a fresh answer.
import type { EventSource } from "../../gateway/http/event-stream.ts";
import { StreamAnswer } from "../../gateway/pipeline/answer.ts";
import type { ChatSink } from "../wire/openai-chat.ts";
import type { ChatCompletion } from "../wire/types.ts";
import { hitUse, type CacheHit } from "./answer-cache.ts";
import { completionChunks } from "./chunks.ts";

const encoder = new TextEncoder();

/** The stored answer under this request's own id. */
export const hitAnswer = (hit: CacheHit, id: string): ChatCompletion => ({ ...hit.answer, id });

/** The stored answer streamed through `sink`, metered as a hit (no provider, no tokens). */
export function replayStream(hit: CacheHit, id: string, sink: ChatSink): StreamAnswer {
  const frames = completionChunks(hitAnswer(hit, id)).flatMap((chunk) => sink.push(chunk));
  return replayFrames(hit, [...frames, ...sink.end()]);
}

/** A hit's answer as the event-stream frames given, sent at once and metered as a hit. */
export function replayFrames(hit: CacheHit, frames: readonly string[]): StreamAnswer {
  const bytes = frames.map((frame) => encoder.encode(frame));
  const source: EventSource = {
    start(out) {
      for (const b of bytes) out.enqueue(b);
      out.close();
    },
    cancel() {},
  };
  const bytesOut = bytes.reduce((n, b) => n + b.byteLength, 0);
  return new StreamAnswer(source, Promise.resolve({ bytesOut, cache: hitUse(hit) }));
}
