// Where a streamed answer's text is in each surface's events (the gateway's own, OpenAI chat chunks,
// Anthropic content blocks, Responses output text), read in one place for whatever rewrites a stream's
// text as it goes out: the placeholders put back (restore-stream.ts), the answer checked (answer-stream.ts).

/** The stream's surface, told by the shape of its events. */
export type Surface = "gateway" | "chat" | "anthropic" | "responses";

/**
 * A stream event's delta text, which text it adds to (`key`), which answer that text is part of (a chat
 * choice; the one message of the other surfaces), and the same event with other text in its place.
 */
export type Delta = { surface: Surface; key: string; answer: string; text: string; with: (text: string) => unknown };

/** A delta, "other" for an event that is none (a text's end is a delta with no text), undefined when not an object. */
export function deltaOf(data: unknown): Delta | "other" | undefined {
  if (!data || typeof data !== "object") return undefined;
  const d = data as Record<string, unknown>;
  // The gateway's own: {"content": "..."}.
  if (typeof d.content === "string" && Object.keys(d).length === 1)
    return { surface: "gateway", key: "g", answer: "g", text: d.content, with: (content) => ({ content }) };
  // OpenAI chat chunk: choices[0].delta.content (one choice a chunk, as the gateway relays them).
  if (Array.isArray(d.choices) && d.choices.length === 1) {
    const choice = d.choices[0] as { index?: number; delta?: { content?: unknown } };
    const key = `c${choice.index ?? 0}`;
    const at = { surface: "chat" as const, key, answer: key };
    if (typeof choice.delta?.content !== "string") return { ...at, text: "", with: () => data };
    return {
      ...at,
      text: choice.delta.content,
      with: (content) => ({ ...d, choices: [{ ...choice, delta: { ...choice.delta, content } }] }),
    };
  }
  // Anthropic: content_block_delta's text_delta, by block index.
  if (d.type === "content_block_delta" || d.type === "content_block_stop") {
    const at = { surface: "anthropic" as const, key: `a${String(d.index)}`, answer: "a" };
    const delta = d.delta as { type?: string; text?: unknown } | undefined;
    if (d.type === "content_block_stop" || delta?.type !== "text_delta" || typeof delta.text !== "string")
      return { ...at, text: "", with: () => data };
    return { ...at, text: delta.text, with: (text) => ({ ...d, delta: { ...delta, text } }) };
  }
  // Responses: output_text.delta by output and content index; its .done carries the whole text.
  if (typeof d.type === "string" && d.type.startsWith("response.output_text.")) {
    const at = {
      surface: "responses" as const,
      key: `r${String(d.output_index)}:${String(d.content_index)}`,
      answer: "r",
    };
    if (d.type !== "response.output_text.delta" || typeof d.delta !== "string")
      return { ...at, text: "", with: () => data };
    return { ...at, text: d.delta, with: (delta) => ({ ...d, delta }) };
  }
  return "other";
}

/**
 * The answer an event finishes, when it is the provider's last word on it: a chat choice's finish_reason,
 * Anthropic's message_delta (its stop reason), Responses' completed or incomplete response, the gateway's
 * own `done` event. Whatever follows (usage, [DONE], message_stop) carries no text.
 */
export function answerEndOf(data: unknown): { surface: Surface; answer: string } | undefined {
  if (!data || typeof data !== "object") return undefined;
  const d = data as Record<string, unknown>;
  if (Array.isArray(d.choices) && d.choices.length === 1) {
    const choice = d.choices[0] as { index?: number; finish_reason?: unknown };
    return choice.finish_reason ? { surface: "chat", answer: `c${choice.index ?? 0}` } : undefined;
  }
  if (d.type === "message_delta") return { surface: "anthropic", answer: "a" };
  if (d.type === "response.completed" || d.type === "response.incomplete") return { surface: "responses", answer: "r" };
  if (d.done === true && d.error === undefined) return { surface: "gateway", answer: "g" };
  return undefined;
}

/** An event's lines (its name, its one data line) with other data in place of its data. */
export const frame = (lines: readonly string[], data: unknown) =>
  `${lines.map((l) => (l.startsWith("data:") ? `data: ${JSON.stringify(data)}` : l)).join("\n")}\n\n`;
