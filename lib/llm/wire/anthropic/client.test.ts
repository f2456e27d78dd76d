import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { GatewayError } from "../../../errors.ts";
import type { AnthropicEvent, ChatChunk, ChatCompletion, MessagesRequest } from "../types.ts";
import { ChatToMessageEvents, chatToMessage, messagesToChat } from "./client.ts";
import { streamError } from "./errors.ts";
import { messageUsage } from "./usage.ts";

const o = { id: "msg_1", model: "xai/grok-4-fast" };
const request = (extra: Partial<MessagesRequest>): MessagesRequest => ({
  model: "xai/grok-4-fast",
  max_tokens: 100,
  messages: [{ role: "user", content: "hi" }],
  ...extra,
});
const weather = { name: "weather", description: "Weather in a city", input_schema: { type: "object" as const } };

/** The 400 messagesToChat throws for `body`, as `status message`. */
function refusal(body: unknown): string {
  try {
    messagesToChat(body as MessagesRequest, "grok-4-fast", "xai");
  } catch (err) {
    if (err instanceof GatewayError) return `${err.status} ${err.message}`;
    throw err;
  }
  throw new Error("expected a 400");
}

describe("messagesToChat", () => {
  it("carries a tool round trip, tool results first and in order", () => {
    const chat = messagesToChat(
      request({
        system: [
          { type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } },
          { type: "text", text: "Use tools." },
        ],
        tools: [weather],
        messages: [
          { role: "user", content: "Weather in Paris and Oslo?" },
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "Two cities.", signature: "sig" },
              { type: "text", text: "Checking." },
              { type: "tool_use", id: "t1", name: "weather", input: { city: "Paris" } },
              { type: "tool_use", id: "t2", name: "weather", input: { city: "Oslo" } },
            ],
          },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "t1", content: "18C" },
              { type: "tool_result", tool_use_id: "t2", content: [{ type: "text", text: "no data" }], is_error: true },
              { type: "text", text: "And tomorrow?" },
            ],
          },
        ],
      }),
      "grok-4-fast",
      "xai",
    );
    expect(chat).toEqual({
      model: "grok-4-fast",
      max_tokens: 100,
      tools: [
        {
          type: "function",
          function: { name: "weather", description: "Weather in a city", parameters: { type: "object" } },
        },
      ],
      messages: [
        { role: "system", content: "Be brief.\n\nUse tools." },
        { role: "user", content: "Weather in Paris and Oslo?" },
        {
          role: "assistant",
          content: "Checking.",
          tool_calls: [
            { id: "t1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
            { id: "t2", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: "tool", tool_call_id: "t1", content: "18C" },
        { role: "tool", tool_call_id: "t2", content: "Error: no data" },
        { role: "user", content: [{ type: "text", text: "And tomorrow?" }] },
      ],
    });
  });

  it("sends null content for an assistant turn of tool calls only", () => {
    const chat = messagesToChat(
      request({
        messages: [{ role: "assistant", content: [{ type: "tool_use", id: "t1", name: "weather", input: {} }] }],
      }),
      "m",
      "xai",
    );
    expect(chat.messages).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "t1", type: "function", function: { name: "weather", arguments: "{}" } }],
      },
    ]);
  });

  it("sends images inline as data URLs or by their URL", () => {
    const chat = messagesToChat(
      request({
        messages: [
          {
            role: "user",
            content: [
              { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
              { type: "image", source: { type: "url", url: "https://example.com/a.jpg" } },
              { type: "text", text: "Compare." },
            ],
          },
        ],
      }),
      "m",
      "openai",
    );
    expect(chat.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
          { type: "image_url", image_url: { url: "https://example.com/a.jpg" } },
          { type: "text", text: "Compare." },
        ],
      },
    ]);
  });

  it("maps tool_choice and disable_parallel_tool_use", () => {
    const choice = (tool_choice: MessagesRequest["tool_choice"]) => {
      const { tool_choice: c, parallel_tool_calls: p } = messagesToChat(request({ tool_choice }), "m", "xai");
      return { c, p };
    };
    expect(choice({ type: "auto" })).toEqual({ c: "auto" });
    expect(choice({ type: "any" })).toEqual({ c: "required" });
    expect(choice({ type: "none" })).toEqual({ c: "none" });
    expect(choice({ type: "tool", name: "weather", disable_parallel_tool_use: true })).toEqual({
      c: { type: "function", function: { name: "weather" } },
      p: false,
    });
  });

  it("turns a thinking budget into a reasoning effort", () => {
    const effort = (thinking: MessagesRequest["thinking"]) =>
      messagesToChat(request({ thinking }), "m", "xai").reasoning_effort;
    expect(effort({ type: "enabled", budget_tokens: 1024 })).toBe("low");
    expect(effort({ type: "enabled", budget_tokens: 2048 })).toBe("low");
    expect(effort({ type: "enabled", budget_tokens: 8192 })).toBe("medium");
    expect(effort({ type: "enabled", budget_tokens: 8193 })).toBe("high");
    expect(effort({ type: "adaptive" })).toBe("medium");
    expect(effort({ type: "disabled" })).toBeUndefined();
  });

  it("copies sampling, stops, user and streaming; ignores caching and tier hints", () => {
    const body = {
      ...request({ stream: true, stop_sequences: ["END"], metadata: { user_id: "u1" }, service_tier: "auto" }),
      temperature: 0.2,
      top_p: 0.9,
      cache_control: { type: "ephemeral" },
    };
    expect(messagesToChat(body as MessagesRequest, "m", "xai")).toEqual({
      model: "m",
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
      stop: ["END"],
      temperature: 0.2,
      top_p: 0.9,
      user: "u1",
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("asks for structured output and effort from output_config", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    const chat = messagesToChat(
      request({ output_config: { effort: "high", format: { type: "json_schema", schema } } }),
      "m",
      "xai",
    );
    expect(chat.reasoning_effort).toBe("high");
    expect(chat.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "output", schema, strict: true },
    });
  });

  it("refuses everything it cannot carry in one 400 naming each and the provider", () => {
    const body = {
      ...request({
        container: "c1",
        tools: [weather, { type: "web_search_20250305", name: "web_search" }],
        messages: [
          {
            role: "user",
            content: [
              { type: "document", source: { type: "text", media_type: "text/plain", data: "x" } },
              {
                type: "tool_result",
                tool_use_id: "t1",
                content: [{ type: "image", source: { type: "url", url: "https://example.com/a.png" } }],
              },
            ],
          },
        ],
      }),
      top_k: 5,
      mcp_servers: [],
      context_management: {},
    };
    expect(refusal(body)).toBe(
      "400 container, top_k, mcp_servers, context_management, web_search_20250305 tools, document content blocks, " +
        "image blocks in tool_result are not supported by xai",
    );
    expect(refusal({ ...request({}), top_k: 5 })).toBe("400 top_k is not supported by xai");
  });
});

const completion = (message: Record<string, unknown>, finish: string, usage?: ChatCompletion["usage"]) =>
  ({
    id: "c1",
    object: "chat.completion",
    created: 0,
    model: "grok-4-fast",
    choices: [{ index: 0, message: { role: "assistant", refusal: null, ...message }, finish_reason: finish }],
    usage,
  }) as ChatCompletion;

const usage = {
  prompt_tokens: 100,
  completion_tokens: 20,
  total_tokens: 120,
  prompt_tokens_details: { cached_tokens: 60 },
};

describe("chatToMessage", () => {
  it("answers thinking, text and tool calls with Anthropic's usage", () => {
    const message = chatToMessage(
      completion(
        {
          content: "Checking.",
          reasoning_content: "Two cities.",
          tool_calls: [
            { id: "t1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
            { id: "t2", type: "function", function: { name: "weather", arguments: '{"city":' } },
          ],
        },
        "tool_calls",
        usage,
      ),
      o,
    );
    expect(message).toMatchObject({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "xai/grok-4-fast",
      content: [
        { type: "thinking", thinking: "Two cities.", signature: "" },
        { type: "text", text: "Checking." },
        { type: "tool_use", id: "t1", name: "weather", input: { city: "Paris" } },
        { type: "tool_use", id: "t2", name: "weather", input: {} },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 40, cache_read_input_tokens: 60, cache_creation_input_tokens: 0, output_tokens: 20 },
    });
  });

  it("maps finish reasons", () => {
    const stop = (finish: string) => chatToMessage(completion({ content: "x" }, finish), o).stop_reason;
    expect(stop("stop")).toBe("end_turn");
    expect(stop("length")).toBe("max_tokens");
    expect(stop("function_call")).toBe("tool_use");
    expect(stop("content_filter")).toBe("refusal");
  });

  it("answers a refusal as text with stop_reason refusal", () => {
    const message = chatToMessage(completion({ content: null, refusal: "I can't help with that." }, "stop"), o);
    expect(message).toMatchObject({
      content: [{ type: "text", text: "I can't help with that." }],
      stop_reason: "refusal",
    });
  });

  it("leaves out an empty text block", () => {
    expect(chatToMessage(completion({ content: "" }, "stop"), o).content).toEqual([]);
  });

  it("counts zero usage when the provider sent none", () => {
    expect(messageUsage(undefined)).toMatchObject({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0 });
  });
});

type Delta = ChatChunk["choices"][number]["delta"] & { reasoning_content?: string };
const chunk = (delta: Delta, finish: ChatChunk["choices"][number]["finish_reason"] = null): ChatChunk => ({
  id: "c1",
  object: "chat.completion.chunk",
  created: 0,
  model: "grok-4-fast",
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usageChunk: ChatChunk = { ...chunk({}), choices: [], usage };

/** A streamed answer: thinking, text, then two tool calls whose arguments arrive in fragments. */
const chunks: ChatChunk[] = [
  chunk({ role: "assistant", content: "" }),
  chunk({ reasoning_content: "Two " }),
  chunk({ reasoning_content: "cities." }),
  chunk({ content: "Check" }),
  chunk({ content: "ing." }),
  chunk({ tool_calls: [{ index: 0, id: "t1", type: "function", function: { name: "weather", arguments: "" } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  chunk({ tool_calls: [{ index: 1, id: "t2", type: "function", function: { name: "weather", arguments: '{"ci' } }] }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: 'ty":"Oslo"}' } }] }),
  chunk({}, "tool_calls"),
  usageChunk,
];

function translate(input: ChatChunk[]): AnthropicEvent[] {
  const events = new ChatToMessageEvents(o);
  return [...input.flatMap((c) => events.push(c)), ...events.end()];
}

const sse = (events: { type: string }[]) =>
  events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");

/** What the official client makes of the events, streamed to it as Anthropic would. */
function finalMessage(events: { type: string }[]) {
  const client = new Anthropic({
    apiKey: "x",
    baseURL: "http://fake",
    maxRetries: 0,
    fetch: async () => new Response(sse(events), { headers: { "content-type": "text/event-stream" } }),
  });
  const stream = client.messages.stream({
    model: o.model,
    max_tokens: 100,
    messages: [{ role: "user", content: "hi" }],
  });
  return stream.finalMessage();
}

describe("ChatToMessageEvents", () => {
  it("opens one block at a time, indexed from 0 across all blocks", () => {
    const shape = translate(chunks).map((e) =>
      e.type === "content_block_start"
        ? `start ${e.index} ${e.content_block.type}`
        : e.type === "content_block_delta"
          ? `delta ${e.index} ${e.delta.type}`
          : e.type === "content_block_stop"
            ? `stop ${e.index}`
            : e.type,
    );
    expect(shape).toEqual([
      "message_start",
      "start 0 thinking",
      "delta 0 thinking_delta",
      "delta 0 thinking_delta",
      "stop 0",
      "start 1 text",
      "delta 1 text_delta",
      "delta 1 text_delta",
      "stop 1",
      "start 2 tool_use",
      "delta 2 input_json_delta",
      "delta 2 input_json_delta",
      "stop 2",
      "start 3 tool_use",
      "delta 3 input_json_delta",
      "delta 3 input_json_delta",
      "stop 3",
      "message_delta",
      "message_stop",
    ]);
  });

  it("is read by the official Anthropic client as the whole message", async () => {
    const message = await finalMessage(translate(chunks));
    expect(message.content).toMatchObject([
      { type: "thinking", thinking: "Two cities." },
      { type: "text", text: "Checking." },
      { type: "tool_use", id: "t1", name: "weather", input: { city: "Paris" } },
      { type: "tool_use", id: "t2", name: "weather", input: { city: "Oslo" } },
    ]);
    expect(message.stop_reason).toBe("tool_use");
    expect(message.usage).toMatchObject({ input_tokens: 40, cache_read_input_tokens: 60, output_tokens: 20 });
  });

  it("ends a stream that never got a chunk well formed", async () => {
    const events = new ChatToMessageEvents(o).end();
    expect(events.map((e) => e.type)).toEqual(["message_start", "message_delta", "message_stop"]);
    const message = await finalMessage(events);
    expect(message).toMatchObject({ content: [], stop_reason: "end_turn" });
  });

  it("reports a mid-stream error the client raises", async () => {
    const events = new ChatToMessageEvents(o);
    const sent = [...events.push(chunk({ content: "Hel" })), streamError("upstream failed")];
    await expect(finalMessage(sent)).rejects.toThrow(/upstream failed/);
  });
});
