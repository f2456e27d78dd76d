import type Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { GatewayError } from "../../../errors.ts";
import type { AnthropicEvent, AnthropicMessage, ChatChunk, ChatMessageParam, ChatRequest } from "../types.ts";
import { AnthropicToChatChunks, anthropicToChat, chatToAnthropic } from "./provider.ts";
import { anthropicUsage } from "./usage.ts";

const MODEL = "claude-sonnet-4-5";
const LABEL = { id: "chatcmpl-1", model: "anthropic/claude-sonnet-4-5", created: 1700000000 };

const chat = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: "anthropic/claude-sonnet-4-5",
  messages: [{ role: "user", content: "Hi" }],
  ...extra,
});

const usage = (u: Partial<Anthropic.Messages.Usage> = {}): Anthropic.Messages.Usage => ({
  input_tokens: 10,
  output_tokens: 5,
  cache_creation_input_tokens: null,
  cache_read_input_tokens: null,
  cache_creation: null,
  inference_geo: null,
  output_tokens_details: null,
  server_tool_use: null,
  service_tier: "standard",
  speed: null,
  ...u,
});

const answer = (
  content: Anthropic.Messages.ContentBlock[],
  stop_reason: Anthropic.Messages.StopReason | null = "end_turn",
): AnthropicMessage => ({
  id: "msg_01",
  type: "message",
  role: "assistant",
  model: MODEL,
  content,
  stop_reason,
  stop_sequence: null,
  stop_details: null,
  container: null,
  diagnostics: null,
  usage: usage(),
});

const text = (t: string): Anthropic.Messages.TextBlock => ({ type: "text", text: t, citations: null });
const toolUse = (id: string, name: string, input: unknown): Anthropic.Messages.ToolUseBlock => ({
  type: "tool_use",
  id,
  name,
  input,
  caller: { type: "direct" },
});

/** The 400 a request is refused with. */
function refusal(body: ChatRequest): GatewayError {
  try {
    chatToAnthropic(body, MODEL);
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error("request was not refused");
}

describe("chatToAnthropic", () => {
  it("turns a tool round trip into alternating turns of tool_use and tool_result", () => {
    const messages: ChatMessageParam[] = [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather in Paris and Rome?" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
          { id: "call_2", type: "function", function: { name: "weather", arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "18C" },
      { role: "tool", tool_call_id: "call_2", content: [{ type: "text", text: "22C" }] },
      { role: "developer", content: [{ type: "text", text: "Answer in French." }] },
      { role: "user", content: "Which is warmer?" },
    ];
    const { request, jsonTool } = chatToAnthropic(chat({ messages, max_tokens: 300 }), MODEL);
    expect(jsonTool).toBeUndefined();
    expect(request).toEqual({
      model: MODEL,
      max_tokens: 300,
      system: "Be brief.\n\nAnswer in French.",
      messages: [
        { role: "user", content: [{ type: "text", text: "Weather in Paris and Rome?" }] },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "call_1", name: "weather", input: { city: "Paris" } },
            { type: "tool_use", id: "call_2", name: "weather", input: { city: "Rome" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_1", content: "18C" },
            { type: "tool_result", tool_use_id: "call_2", content: [{ type: "text", text: "22C" }] },
            { type: "text", text: "Which is warmer?" },
          ],
        },
      ],
    });
  });

  it("maps images by data: URL and http(s) URL, and refuses other parts and image types", () => {
    const { request } = chatToAnthropic(
      chat({
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Compare" },
              { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
              { type: "image_url", image_url: { url: "https://example.com/cat.jpg", detail: "high" } },
            ],
          },
        ],
      }),
      MODEL,
    );
    expect(request.messages[0]?.content).toEqual([
      { type: "text", text: "Compare" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
      { type: "image", source: { type: "url", url: "https://example.com/cat.jpg" } },
    ]);
    const audio = refusal(
      chat({
        messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "AAAA", format: "wav" } }] }],
      }),
    );
    expect(audio.message).toBe("messages[0].content[0].type input_audio is not supported by anthropic");
    const bmp = refusal(
      chat({
        messages: [
          { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/bmp;base64,Qk0=" } }] },
        ],
      }),
    );
    expect(bmp.message).toMatch(/image\/bmp is not supported by anthropic/);
  });

  it("maps tools, tool_choice and parallel_tool_calls", () => {
    const tools: ChatRequest["tools"] = [
      { type: "function", function: { name: "weather", description: "Get weather", parameters: { type: "object" } } },
      { type: "function", function: { name: "now" } },
    ];
    const choice = (extra: Partial<ChatRequest>) =>
      chatToAnthropic(chat({ tools, ...extra }), MODEL).request.tool_choice;
    expect(chatToAnthropic(chat({ tools }), MODEL).request.tools).toEqual([
      { name: "weather", description: "Get weather", input_schema: { type: "object" } },
      { name: "now", input_schema: { type: "object", properties: {} } },
    ]);
    expect(choice({})).toBeUndefined();
    expect(choice({ tool_choice: "auto" })).toEqual({ type: "auto" });
    expect(choice({ tool_choice: "none" })).toEqual({ type: "none" });
    expect(choice({ tool_choice: "required" })).toEqual({ type: "any" });
    expect(choice({ tool_choice: { type: "function", function: { name: "now" } } })).toEqual({
      type: "tool",
      name: "now",
    });
    expect(choice({ parallel_tool_calls: false })).toEqual({ type: "auto", disable_parallel_tool_use: true });
    expect(choice({ tool_choice: "required", parallel_tool_calls: false })).toEqual({
      type: "any",
      disable_parallel_tool_use: true,
    });
    expect(refusal(chat({ tools: [{ type: "custom", custom: { name: "grep" } }] })).message).toBe(
      "tools[0].type custom is not supported by anthropic",
    );
  });

  it("copies stop, sampling, user and stream, and defaults max_tokens", () => {
    const { request } = chatToAnthropic(
      chat({
        stop: "END",
        temperature: 0.2,
        top_p: 0.9,
        user: "u-1",
        stream: true,
        stream_options: { include_usage: true },
      }),
      MODEL,
    );
    expect(request).toMatchObject({
      max_tokens: 4096,
      stop_sequences: ["END"],
      temperature: 0.2,
      top_p: 0.9,
      metadata: { user_id: "u-1" },
      stream: true,
    });
    expect(chatToAnthropic(chat({ stop: ["a", "b"], max_completion_tokens: 50 }), MODEL).request).toMatchObject({
      stop_sequences: ["a", "b"],
      max_tokens: 50,
    });
  });

  it("forces a tool for a json_schema or json_object response_format", () => {
    const schema = { type: "object", properties: { answer: { type: "number" } }, required: ["answer"] };
    const { request, jsonTool } = chatToAnthropic(
      chat({ response_format: { type: "json_schema", json_schema: { name: "result", schema } } }),
      MODEL,
    );
    expect(jsonTool).toBe("result");
    expect(request.tools).toEqual([
      { name: "result", description: "Respond with JSON matching this schema", input_schema: schema },
    ]);
    expect(request.tool_choice).toEqual({ type: "tool", name: "result" });
    const json = chatToAnthropic(chat({ response_format: { type: "json_object" } }), MODEL);
    expect(json.jsonTool).toBe("json");
    expect(json.request.tools?.[0]).toMatchObject({ name: "json", input_schema: { type: "object" } });
    expect(chatToAnthropic(chat({ response_format: { type: "text" } }), MODEL).request.tools).toBeUndefined();
  });

  it("turns reasoning_effort into a thinking budget on top of max_tokens", () => {
    expect(chatToAnthropic(chat({ reasoning_effort: "medium", max_tokens: 1000 }), MODEL).request).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 4096 },
      max_tokens: 5096,
    });
    expect(chatToAnthropic(chat({ reasoning_effort: "low" }), MODEL).request).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 1024 },
      max_tokens: 1024 + 4096,
    });
    expect(chatToAnthropic(chat({ reasoning_effort: "high" }), MODEL).request.thinking).toEqual({
      type: "enabled",
      budget_tokens: 16384,
    });
    const err = refusal(chat({ reasoning_effort: "high", temperature: 0.5 }));
    expect(err.status).toBe(400);
    expect(err.message).toBe("temperature with reasoning_effort is not supported by anthropic");
  });

  it("refuses every option Anthropic lacks in one 400, and accepts their neutral values", () => {
    const err = refusal(
      chat({
        n: 2,
        seed: 7,
        logprobs: true,
        logit_bias: { "50256": -100 },
        temperature: 1.5,
        ...({ foo: "bar" } as object),
      }),
    );
    expect(err.status).toBe(400);
    expect(err.message).toBe(
      "n, seed, logprobs, logit_bias, foo are not supported by anthropic; temperature above 1 is not supported by anthropic",
    );
    expect(refusal(chat({ top_logprobs: 2 })).message).toBe("top_logprobs is not supported by anthropic");
    expect(refusal(chat({ service_tier: "flex" })).message).toBe("service_tier is not supported by anthropic");
    const tools: ChatRequest["tools"] = [{ type: "function", function: { name: "f" } }];
    expect(refusal(chat({ tools, response_format: { type: "json_object" } })).message).toBe(
      "response_format with tools is not supported by anthropic",
    );
    const neutral = chat({
      n: 1,
      logprobs: false,
      store: false,
      service_tier: "auto",
      seed: null,
      frequency_penalty: 0,
    });
    expect(() => chatToAnthropic(neutral, MODEL)).not.toThrow();
  });

  it("names the tool call whose arguments are not a JSON object", () => {
    const err = refusal(
      chat({
        messages: [
          { role: "user", content: "x" },
          {
            role: "assistant",
            tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{oops" } }],
          },
        ],
      }),
    );
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/^messages\[1\]\.tool_calls\[0\]\.function\.arguments /);
    expect(refusal(chat({ messages: [{ role: "function", name: "f", content: "x" }] })).message).toBe(
      "messages[0].role function is not supported by anthropic",
    );
  });
});

describe("anthropicToChat", () => {
  it("turns text, thinking and tool_use blocks into one assistant message", () => {
    const msg = answer(
      [
        { type: "thinking", thinking: "Need the weather.", signature: "sig" },
        text("Let me check."),
        toolUse("toolu_1", "weather", { city: "Paris" }),
      ],
      "tool_use",
    );
    expect(anthropicToChat(msg, LABEL)).toEqual({
      ...LABEL,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Let me check.",
            refusal: null,
            reasoning_content: "Need the weather.",
            tool_calls: [
              { id: "toolu_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
            ],
          },
          finish_reason: "tool_calls",
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 0 } },
    });
    expect(anthropicToChat(answer([toolUse("t", "f", {})], "tool_use"), LABEL).choices[0]?.message.content).toBeNull();
  });

  it("maps stop reasons to finish reasons", () => {
    const finish = (r: Anthropic.Messages.StopReason) =>
      anthropicToChat(answer([text("x")], r), LABEL).choices[0]?.finish_reason;
    expect(finish("end_turn")).toBe("stop");
    expect(finish("stop_sequence")).toBe("stop");
    expect(finish("max_tokens")).toBe("length");
    expect(finish("refusal")).toBe("content_filter");
  });

  it("gives the forced JSON tool's input back as the content", () => {
    const msg = answer([toolUse("toolu_1", "result", { answer: 42 })], "tool_use");
    const choice = anthropicToChat(msg, { ...LABEL, jsonTool: "result" }).choices[0];
    expect(choice?.message.content).toBe('{"answer":42}');
    expect(choice?.message.tool_calls).toBeUndefined();
    expect(choice?.finish_reason).toBe("stop");
  });
});

describe("anthropicUsage", () => {
  it("counts cache reads and writes as prompt tokens, and reads as cached", () => {
    expect(
      anthropicUsage(
        usage({ input_tokens: 20, cache_read_input_tokens: 1000, cache_creation_input_tokens: 300, output_tokens: 40 }),
      ),
    ).toEqual({
      prompt_tokens: 1320,
      completion_tokens: 40,
      total_tokens: 1360,
      prompt_tokens_details: { cached_tokens: 1000 },
    });
  });
});

const delta = (index: number, d: Anthropic.Messages.RawContentBlockDelta): AnthropicEvent => ({
  type: "content_block_delta",
  index,
  delta: d,
});

const messageDelta = (stop_reason: Anthropic.Messages.StopReason, output_tokens: number): AnthropicEvent => ({
  type: "message_delta",
  delta: { stop_reason, stop_sequence: null, stop_details: null, container: null },
  usage: {
    output_tokens,
    input_tokens: null,
    cache_read_input_tokens: null,
    cache_creation_input_tokens: null,
    output_tokens_details: null,
    server_tool_use: null,
  },
});

/** A recorded Anthropic stream: some text, then one tool call whose input arrives in three fragments. */
const toolStream: AnthropicEvent[] = [
  { type: "message_start", message: { ...answer([], null), usage: usage({ input_tokens: 472, output_tokens: 2 }) } },
  { type: "content_block_start", index: 0, content_block: text("") },
  delta(0, { type: "text_delta", text: "Checking the" }),
  delta(0, { type: "text_delta", text: " weather." }),
  { type: "content_block_stop", index: 0 },
  { type: "content_block_start", index: 1, content_block: toolUse("toolu_01A", "get_weather", {}) },
  delta(1, { type: "input_json_delta", partial_json: "" }),
  delta(1, { type: "input_json_delta", partial_json: '{"locati' }),
  delta(1, { type: "input_json_delta", partial_json: 'on": "San Fra' }),
  delta(1, { type: "input_json_delta", partial_json: 'ncisco, CA"}' }),
  { type: "content_block_stop", index: 1 },
  messageDelta("tool_use", 89),
  { type: "message_stop" },
];

const chunksOf = (events: AnthropicEvent[], jsonTool?: string) => {
  const translator = new AnthropicToChatChunks({ ...LABEL, jsonTool });
  return { chunks: events.flatMap((e) => translator.push(e)), translator };
};

/** The final completion the official OpenAI client assembles from the chunks, sent as a real SSE stream. */
async function throughOpenAIClient(chunks: ChatChunk[]) {
  const sse = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n";
  const client = new OpenAI({
    apiKey: "x",
    baseURL: "http://fake/v1",
    fetch: async () => new Response(sse, { headers: { "content-type": "text/event-stream" } }),
  });
  return client.chat.completions
    .stream({ model: LABEL.model, messages: [{ role: "user", content: "hi" }] })
    .finalChatCompletion();
}

describe("AnthropicToChatChunks", () => {
  it("streams text and a tool call whose argument fragments reassemble by index", () => {
    const { chunks, translator } = chunksOf(toolStream);
    const deltas = chunks.flatMap((c) => c.choices.map((ch) => ch.delta));
    expect(deltas[0]).toEqual({ role: "assistant", content: "" });
    expect(deltas.map((d) => d.content ?? "").join("")).toBe("Checking the weather.");
    const args = deltas.flatMap((d) => d.tool_calls ?? []).filter((t) => t.index === 0);
    expect(args[0]).toMatchObject({ id: "toolu_01A", type: "function", function: { name: "get_weather" } });
    expect(JSON.parse(args.map((t) => t.function?.arguments ?? "").join(""))).toEqual({
      location: "San Francisco, CA",
    });
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)).toEqual({
      ...LABEL,
      object: "chat.completion.chunk",
      choices: [],
      usage: {
        prompt_tokens: 472,
        completion_tokens: 89,
        total_tokens: 561,
        prompt_tokens_details: { cached_tokens: 0 },
      },
    });
    expect(translator.finished()).toBe(true);
    expect(translator.usage().completion_tokens).toBe(89);
  });

  it("produces chunks the official OpenAI client assembles into the tool call", async () => {
    const completion = await throughOpenAIClient(chunksOf(toolStream).chunks);
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBe("Checking the weather.");
    expect(choice?.message.tool_calls).toEqual([
      {
        id: "toolu_01A",
        type: "function",
        function: { name: "get_weather", arguments: '{"location": "San Francisco, CA"}' },
      },
    ]);
    expect(completion.usage?.total_tokens).toBe(561);
  });

  it("numbers tool calls from 0 after a thinking block, and streams thinking as reasoning_content", () => {
    const { chunks } = chunksOf([
      toolStream[0]!,
      { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
      delta(0, { type: "thinking_delta", thinking: "Hmm." }),
      delta(0, { type: "signature_delta", signature: "abc" }),
      { type: "content_block_start", index: 1, content_block: toolUse("t1", "a", {}) },
      { type: "content_block_start", index: 2, content_block: toolUse("t2", "b", {}) },
    ]);
    expect(chunks[1]?.choices[0]?.delta).toEqual({ reasoning_content: "Hmm." });
    expect(chunks.slice(2).map((c) => c.choices[0]?.delta.tool_calls?.[0]?.index)).toEqual([0, 1]);
  });

  it("streams the forced JSON tool's input as content, finishing with stop", async () => {
    const events: AnthropicEvent[] = [
      toolStream[0]!,
      { type: "content_block_start", index: 0, content_block: toolUse("toolu_1", "result", {}) },
      delta(0, { type: "input_json_delta", partial_json: '{"answer"' }),
      delta(0, { type: "input_json_delta", partial_json: ": 42}" }),
      messageDelta("tool_use", 12),
      { type: "message_stop" },
    ];
    const completion = await throughOpenAIClient(chunksOf(events, "result").chunks);
    expect(completion.choices[0]?.message.content).toBe('{"answer": 42}');
    expect(completion.choices[0]?.message.tool_calls ?? []).toEqual([]);
    expect(completion.choices[0]?.finish_reason).toBe("stop");
  });
});
