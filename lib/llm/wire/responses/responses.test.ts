import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { ChatChunk, ChatCompletion, ResponseEvent, ResponseInputItem, ResponsesRequest } from "../types.ts";
import { ChatToResponseEvents, chatToResponse, inputItems, responsesToChat, type ResponseContext } from "./index.ts";

const weatherTool = {
  type: "function" as const,
  name: "get_weather",
  description: "Weather for a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: true,
};

const context = (request: ResponsesRequest): ResponseContext => ({
  id: "resp_abc",
  model: "xai/grok-4-fast",
  createdAt: 1_700_000_000,
  request,
});

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return { status: (err as { status?: number }).status, message: (err as Error).message };
  }
  throw new Error("expected a refusal");
};

describe("inputItems", () => {
  it("makes a string one user message and keeps a list as it is", () => {
    expect(inputItems("hi")).toEqual([{ type: "message", role: "user", content: "hi" }]);
    const list: ResponseInputItem[] = [{ role: "user", content: "a" }];
    expect(inputItems(list)).toBe(list);
  });
});

describe("responsesToChat", () => {
  it("sends a string input after the instructions, with the options translated", () => {
    const chat = responsesToChat(
      {
        model: "xai/grok-4-fast",
        input: "hi",
        instructions: "Be brief.",
        max_output_tokens: 100,
        temperature: 0.3,
        top_p: 0.9,
        reasoning: { effort: "low", summary: "auto" },
        text: { verbosity: "low" },
        safety_identifier: "u1",
        parallel_tool_calls: false,
        store: false,
        metadata: { a: "b" },
        truncation: "auto",
        stream: true,
      },
      "grok-4-fast",
      [],
    );
    expect(chat).toEqual({
      model: "grok-4-fast",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
      ],
      max_completion_tokens: 100,
      temperature: 0.3,
      top_p: 0.9,
      reasoning_effort: "low",
      verbosity: "low",
      user: "u1",
      parallel_tool_calls: false,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("replays a function call round trip from the prior items as tool_calls and tool messages", () => {
    const prior: ResponseInputItem[] = [
      { role: "user", content: "Weather in Paris and Rome?" },
      { type: "reasoning", id: "rs_1", summary: [] },
      {
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "Checking.", annotations: [] }],
      },
      { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
      { type: "function_call", call_id: "call_2", name: "get_weather", arguments: '{"city":"Rome"}' },
    ];
    const chat = responsesToChat(
      {
        model: "m",
        input: [
          { type: "function_call_output", call_id: "call_1", output: "sunny" },
          { type: "function_call_output", call_id: "call_2", output: [{ type: "input_text", text: "rain" }] },
        ],
        tools: [weatherTool],
        tool_choice: { type: "function", name: "get_weather" },
      },
      "m",
      prior,
    );
    expect(chat.messages).toEqual([
      { role: "user", content: "Weather in Paris and Rome?" },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          { id: "call_2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "sunny" },
      { role: "tool", tool_call_id: "call_2", content: "rain" },
    ]);
    expect(chat.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Weather for a city",
          parameters: weatherTool.parameters,
          strict: true,
        },
      },
    ]);
    expect(chat.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
  });

  it("sends images by URL with their detail, and developer messages as system", () => {
    const chat = responsesToChat(
      {
        model: "m",
        input: [
          { role: "developer", content: [{ type: "input_text", text: "Describe images." }] },
          {
            role: "user",
            content: [
              { type: "input_text", text: "What is this?" },
              { type: "input_image", image_url: "https://example.com/a.png", detail: "low" },
            ],
          },
        ],
      },
      "m",
      [],
    );
    expect(chat.messages).toEqual([
      { role: "system", content: "Describe images." },
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "low" } },
        ],
      },
    ]);
  });

  it("refuses images it cannot send and files", () => {
    const ask = (content: unknown) => () =>
      responsesToChat({ model: "m", input: [{ role: "user", content }] as ResponseInputItem[] }, "m", []);
    expect(refusal(ask([{ type: "input_image", file_id: "file_1", detail: "auto" }]))).toEqual({
      status: 400,
      message: "input_image with file_id (send image_url) is not supported on /v1/responses",
    });
    expect(refusal(ask([{ type: "input_file", file_data: "…" }])).message).toBe(
      "content parts of type input_file are not supported on /v1/responses",
    );
    const toolImage = () =>
      responsesToChat(
        {
          model: "m",
          input: [
            {
              type: "function_call_output",
              call_id: "c",
              output: [{ type: "input_image", image_url: "https://example.com/a.png" }],
            },
          ],
        },
        "m",
        [],
      );
    expect(refusal(toolImage).message).toBe("input_image in function_call_output is not supported on /v1/responses");
  });

  it("asks for structured output by text.format", () => {
    const schema = { type: "object", properties: { answer: { type: "string" } } };
    const chat = responsesToChat(
      { model: "m", input: "hi", text: { format: { type: "json_schema", name: "answer", schema, strict: true } } },
      "m",
      [],
    );
    expect(chat.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "answer", schema, strict: true, description: undefined },
    });
    const json = responsesToChat({ model: "m", input: "hi", text: { format: { type: "json_object" } } }, "m", []);
    expect(json.response_format).toEqual({ type: "json_object" });
    const text = responsesToChat({ model: "m", input: "hi", text: { format: { type: "text" } } }, "m", []);
    expect(text.response_format).toBeUndefined();
    const grammar = { model: "m", input: "hi", text: { format: { type: "grammar" } } } as unknown as ResponsesRequest;
    expect(refusal(() => responsesToChat(grammar, "m", [])).message).toBe(
      "text.format of type grammar is not supported on /v1/responses",
    );
  });

  it("refuses every unsupported option in one 400, and unsupported tools, tool choices and items by name", () => {
    const body = {
      model: "m",
      input: "hi",
      background: true,
      conversation: "conv_1",
      prompt: { id: "pmpt_1" },
      top_logprobs: 2,
      max_tool_calls: 3,
      prompt_cache_key: "k",
      frobnicate: 1,
      store: true,
      include: ["reasoning.encrypted_content"],
    } as ResponsesRequest;
    expect(refusal(() => responsesToChat(body, "m", []))).toEqual({
      status: 400,
      message:
        "background, conversation, prompt, top_logprobs, max_tool_calls, prompt_cache_key, frobnicate are not supported on /v1/responses",
    });
    const unset = { model: "m", input: "hi", background: false, conversation: null };
    expect(() => responsesToChat(unset, "m", [])).not.toThrow();
    const web = { model: "m", input: "hi", tools: [{ type: "web_search" }] } as ResponsesRequest;
    expect(refusal(() => responsesToChat(web, "m", [])).message).toBe(
      "tools of type web_search are not supported on /v1/responses",
    );
    const allowed = { model: "m", input: "hi", tool_choice: { type: "allowed_tools", mode: "auto", tools: [] } };
    expect(refusal(() => responsesToChat(allowed as ResponsesRequest, "m", [])).message).toBe(
      "tool_choice of type allowed_tools is not supported on /v1/responses",
    );
    const reference = { model: "m", input: [{ type: "item_reference", id: "msg_1" }] } as ResponsesRequest;
    expect(refusal(() => responsesToChat(reference, "m", [])).message).toBe(
      "input items of type item_reference are not supported on /v1/responses",
    );
  });
});

const completion = (message: Record<string, unknown>, finish = "tool_calls"): ChatCompletion =>
  ({
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "grok-4-fast",
    choices: [{ index: 0, finish_reason: finish, logprobs: null, message: { role: "assistant", ...message } }],
    usage: {
      prompt_tokens: 20,
      completion_tokens: 30,
      total_tokens: 50,
      prompt_tokens_details: { cached_tokens: 5 },
      completion_tokens_details: { reasoning_tokens: 7 },
    },
  }) as ChatCompletion;

const toolCompletion = completion({
  content: "Let me check.",
  reasoning_content: "The user wants weather.",
  tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
});

describe("chatToResponse", () => {
  it("answers reasoning, text and tool calls as output items, with usage and the request echoed", () => {
    const request: ResponsesRequest = { model: "xai/grok-4-fast", input: "hi", tools: [weatherTool] };
    const r = chatToResponse(toolCompletion, context(request));
    expect(r).toMatchObject({
      id: "resp_abc",
      object: "response",
      created_at: 1_700_000_000,
      status: "completed",
      error: null,
      incomplete_details: null,
      model: "xai/grok-4-fast",
      output_text: "Let me check.",
      parallel_tool_calls: true,
      previous_response_id: null,
      store: true,
      text: { format: { type: "text" } },
      tool_choice: "auto",
      tools: [weatherTool],
      truncation: "disabled",
      metadata: {},
      usage: {
        input_tokens: 20,
        input_tokens_details: { cached_tokens: 5 },
        output_tokens: 30,
        output_tokens_details: { reasoning_tokens: 7 },
        total_tokens: 50,
      },
    });
    expect(r.output).toEqual([
      { type: "reasoning", id: "rs_abc_0", summary: [{ type: "summary_text", text: "The user wants weather." }] },
      {
        type: "message",
        id: "msg_abc_1",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "Let me check.", annotations: [], logprobs: [] }],
      },
      {
        type: "function_call",
        id: "fc_abc_2",
        call_id: "call_1",
        name: "get_weather",
        arguments: '{"city":"Paris"}',
        status: "completed",
      },
    ]);
  });

  it("is incomplete when the answer ran out of tokens or was filtered", () => {
    const long = chatToResponse(completion({ content: "Once upon" }, "length"), context({ input: "hi" }));
    expect(long).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
    const filtered = chatToResponse(completion({ content: null }, "content_filter"), context({ input: "hi" }));
    expect(filtered).toMatchObject({ status: "incomplete", incomplete_details: { reason: "content_filter" } });
    expect(filtered.output).toEqual([]);
  });

  it("is what the official client reads from a non-streamed answer", async () => {
    const r = chatToResponse(completion({ content: "Hello there." }, "stop"), context({ model: "m", input: "hi" }));
    const client = fakeClient(() => Response.json(r));
    const answer = await client.responses.create({ model: "m", input: "hi" });
    expect(answer.output_text).toBe("Hello there.");
    expect(answer.status).toBe("completed");
  });
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null): ChatChunk =>
  ({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1,
    model: "grok-4-fast",
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  }) as ChatChunk;

const usageChunk = {
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "grok-4-fast",
  choices: [],
  usage: { prompt_tokens: 20, completion_tokens: 30, total_tokens: 50 },
} as ChatChunk;

/** A reasoning model thinking, saying a little, then calling two tools, the first one's arguments in pieces. */
const toolStream: ChatChunk[] = [
  chunk({ role: "assistant", reasoning_content: "Weather " }),
  chunk({ reasoning_content: "for two cities." }),
  chunk({ content: "Let me " }),
  chunk({ content: "check." }),
  chunk({
    tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: "" } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  chunk({
    tool_calls: [
      { index: 1, id: "call_2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
    ],
  }),
  chunk({}, "tool_calls"),
  usageChunk,
];

function translate(chunks: ChatChunk[], request: ResponsesRequest) {
  const events = new ChatToResponseEvents(context(request));
  const out = [...chunks.flatMap((c) => events.push(c)), ...events.end()];
  return { out, response: events.response() };
}

const sse = (events: ResponseEvent[]) => events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");

function fakeClient(answer: () => Response) {
  return new OpenAI({ apiKey: "x", baseURL: "http://fake/v1", fetch: async () => answer() });
}

describe("ChatToResponseEvents", () => {
  it("streams each item opened, filled and closed in turn, numbering every event", () => {
    const { out } = translate(toolStream, { model: "m", input: "hi", tools: [weatherTool] });
    expect(out.map((e) => e.sequence_number)).toEqual(out.map((_, i) => i));
    expect(out.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(out[0]).toMatchObject({ type: "response.created", response: { status: "in_progress", output: [] } });
    expect(out.find((e) => e.type === "response.function_call_arguments.done")).toMatchObject({
      item_id: "fc_abc_2",
      output_index: 2,
      name: "get_weather",
      arguments: '{"city":"Paris"}',
    });
  });

  it("ends with the same response a non-streamed answer would be", () => {
    const request: ResponsesRequest = { model: "m", input: "hi", tools: [weatherTool] };
    const { out, response } = translate(toolStream, request);
    expect(out.at(-1)).toMatchObject({ type: "response.completed", response });
    const whole = completion({
      content: "Let me check.",
      reasoning_content: "Weather for two cities.",
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        { id: "call_2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
      ],
    });
    const expected = chatToResponse(whole, context(request));
    expect(response.output).toEqual(expected.output);
    expect(response.usage).toEqual({
      input_tokens: 20,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 50,
    });
  });

  it("ends incomplete when the answer ran out of tokens, and fails with the message given", () => {
    const { out } = translate([chunk({ content: "Once" }, "length")], { input: "hi" });
    expect(out.at(-1)).toMatchObject({
      type: "response.incomplete",
      response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, output_text: "Once" },
    });
    const events = new ChatToResponseEvents(context({ input: "hi" }));
    events.push(chunk({ content: "Once" }));
    expect(events.error("upstream timed out")).toMatchObject([
      {
        type: "response.failed",
        sequence_number: 5,
        response: { status: "failed", error: { code: "server_error", message: "upstream timed out" } },
      },
    ]);
  });

  it("tells parallel calls apart by id when a provider numbers them all 0", () => {
    const { response } = translate(
      [
        chunk({ tool_calls: [{ index: 0, id: "a", function: { name: "f", arguments: "{}" } }] }),
        chunk({ tool_calls: [{ index: 0, id: "b", function: { name: "g", arguments: "{}" } }] }, "tool_calls"),
      ],
      { input: "hi" },
    );
    expect(response.output.map((item) => item.type === "function_call" && [item.call_id, item.name])).toEqual([
      ["a", "f"],
      ["b", "g"],
    ]);
  });

  it("is a stream the official client accumulates into the final response", async () => {
    const request: ResponsesRequest = { model: "m", input: "hi", tools: [weatherTool], stream: true };
    const body = sse(translate(toolStream, request).out);
    const client = fakeClient(() => new Response(body, { headers: { "content-type": "text/event-stream" } }));
    const stream = client.responses.stream({ model: "m", input: "hi", tools: [weatherTool] });
    const seen: string[] = [];
    let text = "";
    stream.on("response.output_text.delta", (e) => (text = e.snapshot));
    for await (const event of stream) seen.push(event.type);
    const final = await stream.finalResponse();
    expect(seen.at(-1)).toBe("response.completed");
    expect(text).toBe("Let me check.");
    expect(final.output_text).toBe("Let me check.");
    const calls = final.output.filter((item) => item.type === "function_call");
    expect(calls.map((c) => [c.call_id, c.arguments, c.parsed_arguments])).toEqual([
      ["call_1", '{"city":"Paris"}', { city: "Paris" }],
      ["call_2", '{"city":"Rome"}', { city: "Rome" }],
    ]);
    expect(final.usage?.total_tokens).toBe(50);
  });
});
