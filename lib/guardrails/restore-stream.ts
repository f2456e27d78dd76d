// A streamed answer under a redacting policy: the placeholders its events carry put back as they go
// out. A placeholder the model wrote within one event's text is restored; one a provider split over
// several deltas ("[EMAIL", "_1]") reaches the caller as the placeholder.
import type { EventSource } from "../gateway/http/event-stream.ts";
import { restoreInJson } from "./redaction.ts";

/** The longest placeholder ([NATIONAL_ID_999999]): a "[" closer to a chunk's end than this may be one cut in two. */
const LONGEST = 20;

export function restoringEvents(source: EventSource, values: ReadonlyMap<string, string>): EventSource {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let held = "";
  return {
    start: (sink) =>
      source.start({
        enqueue: (bytes) => {
          const text = held + decoder.decode(bytes, { stream: true });
          // A chunk boundary inside a placeholder: keep its start for the next chunk.
          const open = text.lastIndexOf("[");
          const cut = open >= 0 && open > text.length - LONGEST && !text.includes("]", open) ? open : text.length;
          held = text.slice(cut);
          if (cut > 0) sink.enqueue(encoder.encode(restoreInJson(text.slice(0, cut), values)));
        },
        close: () => {
          const rest = held + decoder.decode();
          if (rest) sink.enqueue(encoder.encode(restoreInJson(rest, values)));
          sink.close();
        },
      }),
    cancel: () => source.cancel(),
  };
}
