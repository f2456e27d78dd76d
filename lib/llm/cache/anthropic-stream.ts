// Anthropic's own answer to a Messages client, as the response cache keeps it: a whole message, or its
// events read as they are relayed unchanged, become the pivot answer (a chat completion), but only when
// replaying the pivot would give the answer back as it came: text and tool_use blocks, and a stop reason
// the pivot's finish reason carries back. Thinking would lose its signature (which Anthropic checks when
// the client sends the block back); citations, server tools' blocks and redacted thinking have no place
// in the pivot. Such an answer is given as ever and not kept.
import { AnthropicToChatChunks, anthropicToChat, type AnswerOptions } from "../wire/anthropic/provider.ts";
import type { AnthropicEvent, AnthropicMessage, ChatCompletion } from "../wire/types.ts";
import type { AnswerRecorder } from "./chunks.ts";

// The stop reasons that come back unchanged from the pivot's finish reason (stop_sequence and
// pause_turn would come back as end_turn, model_context_window_exceeded as max_tokens).
const REPLAYED_STOPS = new Set(["end_turn", "max_tokens", "tool_use", "refusal"]);

/** A whole message in the pivot form, or undefined when it is not to be kept. */
export function keptMessage(msg: AnthropicMessage, labels: AnswerOptions): ChatCompletion | undefined {
  if (!REPLAYED_STOPS.has(msg.stop_reason ?? "")) return undefined;
  const plain = msg.content.every((b) => b.type === "tool_use" || (b.type === "text" && !b.citations?.length));
  return plain ? anthropicToChat(msg, labels) : undefined;
}

/**
 * Reads a stream's events into `recorder` as the chunks of the pivot answer; the first event the pivot
 * could not give back as it came drops the answer.
 */
export function keptEvents(recorder: AnswerRecorder, labels: AnswerOptions): (event: Record<string, unknown>) => void {
  const chunks = new AnthropicToChatChunks(labels);
  return (data) => {
    const event = data as unknown as AnthropicEvent;
    if (!replayable(event)) recorder.drop();
    for (const chunk of chunks.push(event)) recorder.push(chunk);
  };
}

function replayable(event: AnthropicEvent): boolean {
  switch (event.type) {
    case "content_block_start": {
      const block = event.content_block;
      return block.type === "tool_use" || (block.type === "text" && !block.citations?.length);
    }
    case "content_block_delta":
      return event.delta.type !== "citations_delta";
    case "message_delta":
      return REPLAYED_STOPS.has(event.delta.stop_reason ?? "");
    default:
      return true;
  }
}
