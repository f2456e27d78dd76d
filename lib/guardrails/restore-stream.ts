// A streamed answer under a redacting policy: the placeholders its events carry put back as they go
// out, in every surface's stream. A placeholder within one event is restored in place; one a provider
// split over several deltas ("[EMA", "IL_1]") is held back from the delta it starts in and sent, restored,
// with the next delta of the same text (or in a delta of its own before that text's next other event).
import type { EventSource } from "../gateway/http/event-stream.ts";
import { restore, restoreInJson } from "./redaction.ts";

/** The longest placeholder ([NATIONAL_ID_999999]): a "[" closer to a delta's end than this may start one. */
const LONGEST = 20;

/** Where a stream event's delta text is, in each surface's shape, and which text it adds to. */
type Delta = { key: string; text: string; with: (text: string) => unknown };

function deltaOf(data: unknown): Delta | "other" | undefined {
  if (!data || typeof data !== "object") return undefined;
  const d = data as Record<string, unknown>;
  // The gateway's own: {"content": "..."}.
  if (typeof d.content === "string" && Object.keys(d).length === 1)
    return { key: "g", text: d.content, with: (content) => ({ content }) };
  // OpenAI chat chunk: choices[0].delta.content (one choice a chunk, as the gateway relays them).
  if (Array.isArray(d.choices) && d.choices.length === 1) {
    const choice = d.choices[0] as { index?: number; delta?: { content?: unknown } };
    const key = `c${choice.index ?? 0}`;
    if (typeof choice.delta?.content !== "string") return { key, text: "", with: () => data };
    return {
      key,
      text: choice.delta.content,
      with: (content) => ({ ...d, choices: [{ ...choice, delta: { ...choice.delta, content } }] }),
    };
  }
  // Anthropic: content_block_delta's text_delta, by block index.
  if (d.type === "content_block_delta" || d.type === "content_block_stop") {
    const key = `a${String(d.index)}`;
    const delta = d.delta as { type?: string; text?: unknown } | undefined;
    if (d.type === "content_block_stop" || delta?.type !== "text_delta" || typeof delta.text !== "string")
      return { key, text: "", with: () => data };
    return { key, text: delta.text, with: (text) => ({ ...d, delta: { ...delta, text } }) };
  }
  // Responses: output_text.delta by output and content index; its .done carries the whole text.
  if (typeof d.type === "string" && d.type.startsWith("response.output_text.")) {
    const key = `r${String(d.output_index)}:${String(d.content_index)}`;
    if (d.type !== "response.output_text.delta" || typeof d.delta !== "string")
      return { key, text: "", with: () => data };
    return { key, text: d.delta, with: (delta) => ({ ...d, delta }) };
  }
  return "other";
}

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

  const frame = (lines: string[], data: unknown) =>
    `${lines.map((l) => (l.startsWith("data:") ? `data: ${JSON.stringify(data)}` : l)).join("\n")}\n\n`;

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
