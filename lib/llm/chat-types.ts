// The chat shapes shared by the chat pipeline and the stream relays, in a module of their own so
// the relays need not import chat.ts (which imports them).

export type ChatMessage = { role: "user" | "assistant" | "system"; content: string };

export type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

/** One answer, not streamed, as /v1/llm/chat returns it. */
export type CompletionResponse = { content: string; model: string; provider: string; usage: Usage };

/** What a provider's stream yields to the gateway, however it was read. A stream ends with `finish` or throws. */
export type ChatPart =
  { type: "text"; text: string } | { type: "model"; id: string } | { type: "finish"; usage: Usage };
