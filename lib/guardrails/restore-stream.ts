// A streamed answer under a redacting policy: the placeholders its events carry put back as they go
// out, in every surface's stream. A placeholder within one event is restored in place; one a provider
// split over several deltas ("[EMA", "IL_1]") is held back from the delta it starts in and sent, restored,
// with the next delta of the same text (or in a delta of its own before that text's next other event).
import type { EventSource } from "../gateway/http/event-stream.ts";
import { restore, restoreInJson } from "./redaction.ts";
import { deltaOf, frame, type Delta } from "./stream-delta.ts";

/** The longest placeholder ([NATIONAL_ID_999999]): a "[" closer to a delta's end than this may start one. */
const LONGEST = 20;

/** The end of `text` that may be the start of one of `values`' placeholders, cut in two by the provider. */
function openTail(text: string, values: ReadonlyMap<string, string>): number {
  const open = text.lastIndexOf("[");
  if (open < 0 || open < text.length - LONGEST || text.includes("]", open)) return text.length;
  const tail = text.slice(open);
  for (const placeholder of values.keys()) if (placeholder.startsWith(tail)) return open;
  return text.length;
}

export function restoringEvents(source: EventSource, values: ReadonlyMap<string, string>): EventSource {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  /** Per text: what is held back, and the last delta event, to send what is held as one of its own. */
  const held = new Map<string, { text: string; last: Delta; lines: string[] }>();

  /** What is held for `key`, as a delta event of its own (before that text's next other event, or the end). */
  const release = (key: string): string => {
    const h = held.get(key);
    if (!h) return "";
    held.delete(key);
    return frame(h.lines, h.last.with(restore(h.text, values)));
  };

  const rewrite = (event: string): string => {
    const lines = event.split("\n");
    const dataLines = lines.filter((l) => l.startsWith("data:"));
    if (dataLines.length !== 1) return `${restoreInJson(event, values)}\n\n`;
    let data: unknown;
    try {
      data = JSON.parse(dataLines[0]!.slice(5));
    } catch {
      // [DONE] and other raw lines: what is still held goes first.
      return [...held.keys()].map(release).join("") + `${restoreInJson(event, values)}\n\n`;
    }
    const delta = deltaOf(data);
    if (delta === undefined || delta === "other") return `${restoreInJson(event, values)}\n\n`;
    const before = held.get(delta.key);
    if (!delta.text) return release(delta.key) + `${restoreInJson(event, values)}\n\n`;
    const text = (before?.text ?? "") + delta.text;
    const cut = openTail(text, values);
    if (cut < text.length) held.set(delta.key, { text: text.slice(cut), last: delta, lines });
    else held.delete(delta.key);
    if (cut === 0) return "";
    if (!before && cut === text.length && restore(text, values) === text) return `${event}\n\n`;
    return frame(lines, delta.with(restore(text.slice(0, cut), values)));
  };

  return {
    start: (sink) =>
      source.start({
        enqueue: (bytes) => {
          pending += decoder.decode(bytes, { stream: true }).replace(/\r\n/g, "\n");
          const events = pending.split("\n\n");
          pending = events.pop()!;
          const out = events.map(rewrite).join("");
          if (out) sink.enqueue(encoder.encode(out));
        },
        close: () => {
          const rest = pending + decoder.decode();
          const out = [...held.keys()].map(release).join("") + (rest ? restoreInJson(rest, values) : "");
          if (out) sink.enqueue(encoder.encode(out));
          sink.close();
        },
      }),
    cancel: () => source.cancel(),
  };
}
