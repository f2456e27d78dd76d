/**
 * Reads the gateway's chat stream: server-sent events whose data lines are JSON, `{content}` per
 * delta and a last `{done: true, model, provider, usage}` (or `{error, done: true}`), as
 * lib/llm/chat.ts writes them.
 */

export type ChatEvent =
  | { type: "delta"; content: string }
  | {
      type: "done";
      model?: string;
      provider?: string;
      usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    }
  | { type: "error"; message: string };

type Raw = { content?: unknown; done?: unknown; error?: unknown; model?: unknown; provider?: unknown; usage?: unknown };

export function toChatEvent(data: string): ChatEvent | null {
  let raw: Raw;
  try {
    raw = JSON.parse(data) as Raw;
  } catch {
    return null; // Not ours (e.g. an OpenAI-style [DONE] trailer): nothing to show.
  }
  if (typeof raw.error === "string") return { type: "error", message: raw.error };
  if (raw.done === true) {
    return {
      type: "done",
      model: typeof raw.model === "string" ? raw.model : undefined,
      provider: typeof raw.provider === "string" ? raw.provider : undefined,
      usage: raw.usage as Extract<ChatEvent, { type: "done" }>["usage"],
    };
  }
  if (typeof raw.content === "string") return { type: "delta", content: raw.content };
  return null;
}

/** Yields each event's data as it arrives; events split across chunks are reassembled. */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r?\n\r?\n/)) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
        const data = block
          .split(/\r?\n/)
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).replace(/^ /, ""))
          .join("\n");
        if (data) yield data;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
