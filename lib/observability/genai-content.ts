import type { Attributes } from "@opentelemetry/api";

/**
 * Prompt and completion text on a model call's span, as the OpenTelemetry GenAI conventions record it
 * when content capture is on (OTEL_GENAI_CAPTURE_CONTENT=true): `gen_ai.input.messages`,
 * `gen_ai.system_instructions` and `gen_ai.output.messages`, each a JSON array of messages made of
 * typed parts. Each is capped, so one long conversation cannot make a span the collector refuses.
 */

/** The most one attribute's JSON holds, in UTF-8 bytes. */
export const CONTENT_CAP_BYTES = 16 * 1024;

type Part = { type: string; [field: string]: unknown };
/** A message as the conventions write it: its role and parts; an answer's also says why it finished. */
export type GenAiMessage = { role: string; parts: Part[]; finish_reason?: string };

type Block = { type?: unknown; text?: unknown; [field: string]: unknown };
/** A chat message of OpenAI's wire or Anthropic's, as far as its content goes. */
export type WireMessage = {
  role?: unknown;
  content?: unknown;
  tool_calls?: Array<{ id?: unknown; function?: { name?: unknown; arguments?: unknown } }>;
  tool_call_id?: unknown;
};

/**
 * A chat message of either wire the gateway speaks (OpenAI's Chat Completions, Anthropic's Messages)
 * as the conventions' message: text, tool calls and tool results as their parts; images, files and
 * audio by their type only (their data is no text and would fill the cap).
 */
export function genAiMessage(message: WireMessage, finishReason?: string): GenAiMessage {
  const role = message.role === "developer" ? "system" : String(message.role ?? "user");
  const parts =
    role === "tool"
      ? [{ type: "tool_call_response", id: message.tool_call_id, response: textOf(message.content) }]
      : partsOf(message.content);
  for (const call of message.tool_calls ?? [])
    parts.push({ type: "tool_call", id: call.id, name: call.function?.name, arguments: call.function?.arguments });
  return finishReason === undefined ? { role, parts } : { role, parts, finish_reason: finishReason };
}

/** The request's messages (and instructions given apart from them, as Anthropic's `system` is). */
export function inputAttributes(messages: readonly WireMessage[], system?: unknown): Attributes {
  const attributes: Attributes = { "gen_ai.input.messages": cappedJson(messages.map((m) => genAiMessage(m))) };
  if (system !== undefined && system !== null) {
    const parts = partsOf(system);
    if (parts.length) attributes["gen_ai.system_instructions"] = cappedJson(parts);
  }
  return attributes;
}

/** The answer's messages (one per choice). */
export function outputAttributes(messages: readonly GenAiMessage[]): Attributes {
  return { "gen_ai.output.messages": cappedJson(messages) };
}

function partsOf(content: unknown): Part[] {
  if (typeof content === "string") return content ? [{ type: "text", content }] : [];
  if (!Array.isArray(content)) return [];
  return (content as Block[]).map(partOf);
}

function partOf(block: Block): Part {
  switch (block.type) {
    case "text":
      return { type: "text", content: String(block.text ?? "") };
    case "thinking":
      return { type: "reasoning", content: String(block.thinking ?? "") };
    case "tool_use":
      return { type: "tool_call", id: block.id, name: block.name, arguments: block.input };
    case "tool_result":
      return { type: "tool_call_response", id: block.tool_use_id, response: textOf(block.content) };
    default:
      return { type: String(block.type ?? "unknown") };
  }
}

/** A content's text, its text blocks joined: what a tool result says. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Block[])
    .filter((b) => b.type === "text")
    .map((b) => String(b.text ?? ""))
    .join("");
}

const encoder = new TextEncoder();
const bytesOf = (text: string) => Buffer.byteLength(text);

type Item = GenAiMessage | Part;
const isMessage = (item: Item): item is GenAiMessage => Array.isArray((item as GenAiMessage).parts);

/**
 * Messages (or instructions' parts) as JSON of at most CONTENT_CAP_BYTES: whole when they fit; else the
 * newest that fit (the latest turns say most about an answer), the one that crosses the cap with its
 * text cut short ("…").
 */
export function cappedJson(items: readonly Item[], cap = CONTENT_CAP_BYTES): string {
  const whole = JSON.stringify(items);
  if (bytesOf(whole) <= cap) return whole;
  const kept: Item[] = [];
  let used = 2;
  for (let i = items.length - 1; i >= 0; i--) {
    const comma = kept.length ? 1 : 0;
    const item = items[i]!;
    const size = bytesOf(JSON.stringify(item)) + comma;
    if (used + size <= cap) {
      kept.unshift(item);
      used += size;
      continue;
    }
    const cut = cutToFit(item, cap - used - comma);
    if (cut) kept.unshift(cut);
    break;
  }
  return JSON.stringify(kept);
}

/** The item with its texts cut so its JSON takes at most `room` bytes; undefined when not even its frame fits. */
function cutToFit(item: Item, room: number): Item | undefined {
  const frame = bytesOf(JSON.stringify(withTexts(item, () => "")));
  let budget = room - frame;
  // JSON escapes (quotes, newlines) make a text longer than its bytes: shrink by the share that overflowed until it fits.
  while (budget > 0) {
    let left = budget;
    const cut = withTexts(item, (text) => {
      const kept = prefix(text, Math.max(0, left));
      left -= bytesOf(kept);
      return kept.length < text.length ? `${kept}…` : kept;
    });
    const size = bytesOf(JSON.stringify(cut));
    if (size <= room) return cut;
    budget = Math.min(budget - 1, Math.floor((budget * (room - frame)) / (size - frame)));
  }
  return undefined;
}

/** The item with each text (a part's `content`) mapped. */
function withTexts(item: Item, map: (text: string) => string): Item {
  if (isMessage(item)) return { ...item, parts: item.parts.map((p) => withTexts(p, map) as Part) };
  return typeof item.content === "string" ? { ...item, content: map(item.content) } : item;
}

/** The longest start of `text` that takes at most `bytes` in UTF-8, never splitting a character. */
function prefix(text: string, bytes: number): string {
  if (bytesOf(text) <= bytes) return text;
  const { read } = encoder.encodeInto(text, new Uint8Array(bytes));
  return text.slice(0, read);
}
