import { describe, expect, it } from "vitest";
import type { AnthropicMessage } from "../wire/types.ts";
import { keptEvents, keptMessage } from "./anthropic-stream.ts";
import { AnswerRecorder } from "./chunks.ts";

const LABELS = { id: "msg_1", model: "anthropic/claude-haiku-4-5", created: 1_760_000_000 };
const usage = { input_tokens: 12, output_tokens: 1 };

/** Anthropic's events as the relay parses them off the wire: text, then `blocks`, then the stop. */
function events(blocks: Record<string, unknown>[], stop = "end_turn"): Record<string, unknown>[] {
  return [
    {
      type: "message_start",
      message: { id: "msg_up", type: "message", role: "assistant", model: "claude", content: [], usage },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Checking the" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: " weather." } },
    { type: "content_block_stop", index: 0 },
    ...blocks,
    { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 9 } },
    { type: "message_stop" },
  ];
}

const toolCall = [
  {
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "toolu_1", name: "weather", input: {} },
  },
  { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"city":' } },
  { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '"Oslo"}' } },
  { type: "content_block_stop", index: 1 },
];

function kept(stream: Record<string, unknown>[]) {
  const recorder = new AnswerRecorder(10_000);
  const watch = keptEvents(recorder, LABELS);
  for (const event of stream) watch(event);
  return recorder.answer();
}

describe("keptEvents", () => {
  it("rebuilds text and a tool call as the whole pivot answer, under the client's model name", () => {
    const answer = kept(events(toolCall, "tool_use"));
    expect(answer).toMatchObject({
      id: "msg_1",
      model: LABELS.model,
      usage: { prompt_tokens: 12, completion_tokens: 9 },
    });
    expect(answer!.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: {
        content: "Checking the weather.",
        tool_calls: [{ id: "toolu_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }],
      },
    });
  });

  it("keeps nothing of an answer the pivot cannot give back as it came", () => {
    const thinking = [
      { type: "content_block_start", index: 1, content_block: { type: "thinking", thinking: "", signature: "" } },
      { type: "content_block_delta", index: 1, delta: { type: "thinking_delta", thinking: "Hmm." } },
      { type: "content_block_delta", index: 1, delta: { type: "signature_delta", signature: "sig" } },
      { type: "content_block_stop", index: 1 },
    ];
    const cited = [
      { type: "content_block_start", index: 1, content_block: { type: "text", text: "", citations: [] } },
      {
        type: "content_block_delta",
        index: 1,
        delta: { type: "citations_delta", citation: { type: "char_location", cited_text: "x" } },
      },
      { type: "content_block_stop", index: 1 },
    ];
    expect(kept(events([]))).toBeDefined();
    expect(kept(events(thinking))).toBeUndefined();
    expect(kept(events(cited))).toBeUndefined();
    expect(kept(events([], "stop_sequence"))).toBeUndefined();
    expect(kept(events([], "pause_turn"))).toBeUndefined();
  });

  it("keeps nothing of a stream cut off before its stop", () => {
    expect(kept(events([]).slice(0, 4))).toBeUndefined();
  });
});

describe("keptMessage", () => {
  const message = (content: AnthropicMessage["content"], stop_reason = "end_turn") =>
    ({
      id: "msg_up",
      type: "message",
      role: "assistant",
      model: "claude",
      content,
      stop_reason,
      stop_sequence: null,
      usage,
    }) as unknown as AnthropicMessage;

  it("keeps text and tool calls, and nothing with thinking or another stop", () => {
    const text = { type: "text", text: "Hi.", citations: null } as AnthropicMessage["content"][number];
    expect(keptMessage(message([text]), LABELS)?.choices[0]!.message.content).toBe("Hi.");
    const thinking = { type: "thinking", thinking: "Hmm.", signature: "sig" } as AnthropicMessage["content"][number];
    expect(keptMessage(message([thinking, text]), LABELS)).toBeUndefined();
    expect(keptMessage(message([text], "stop_sequence"), LABELS)).toBeUndefined();
  });
});
