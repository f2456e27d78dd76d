// The chat shapes shared by the chat pipeline and the stream relays, in a module of their own so
// the relays need not import chat.ts (which imports them).
import type { EventSource } from "../gateway/http/event-stream.ts";
import type { FeatureUse } from "../usage/meter.ts";

export type ChatMessage = { role: "user" | "assistant" | "system"; content: string };

export type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

/** One answer, not streamed, as /v1/llm/chat returns it. */
export type CompletionResponse = { content: string; model: string; provider: string; usage: Usage };

/**
 * What a provider's stream yields to the gateway, however it was read. A stream ends with `finish` (with
 * why the model stopped, when the provider said) or throws.
 */
export type ChatPart =
  { type: "text"; text: string } | { type: "model"; id: string } | { type: "finish"; usage: Usage; reason?: string };

export type StreamOutcome = {
  usage: Usage;
  model: string;
  provider: string;
  complete: boolean;
  bytes: number;
  /** What the provider reported using beyond tokens (a passed-through server tool, a service tier). */
  features?: FeatureUse;
};

/** A chat stream ready to answer with (eventStreamResponse), and its outcome once it ends or the client leaves. */
export type ChatStream = { source: EventSource; finished: Promise<StreamOutcome> };
