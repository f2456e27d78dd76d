import { describe, expect, it } from "vitest";
import { chatChunkSink, type ChatSink } from "../wire/openai-chat.ts";
import type { ChatChunk, ChatCompletion } from "../wire/types.ts";
import { AnswerRecorder, completionChunks, recordingSink } from "./chunks.ts";

type Message = ChatCompletion["choices"][number]["message"] & { reasoning_content?: string };
type Delta = ChatChunk["choices"][number]["delta"] & { reasoning_content?: string };

const USAGE = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 };

function answer(messages: Array<Partial<Message>>, extra: Partial<ChatCompletion> = {}): ChatCompletion {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "gpt-4.1-mini",
    choices: messages.map((m, index) => ({
      index,
      message: { role: "assistant", content: null, refusal: null, ...m },
      finish_reason: m.tool_calls ? "tool_calls" : "stop",
      logprobs: null,
    })),
    ...extra,
  };
}

const call = (id: string, name: string, args: string) => ({
  id,
  type: "function" as const,
  function: { name, arguments: args },
});

/** Chunks as a provider streams them, with OpenAI's labels. */
const chunk = (delta: Delta, finish_reason: ChatChunk["choices"][number]["finish_reason"] = null, index = 0) =>
  ({
    id: "chatcmpl-9",
    object: "chat.completion.chunk",
    created: 1_700_000_100,
    model: "gpt-4.1-2025-04-14",
    system_fingerprint: "fp_abc",
    service_tier: "default",
    choices: [{ index, delta, finish_reason, logprobs: null }],
  }) satisfies ChatChunk;
const usageChunk = (usage = USAGE): ChatChunk => ({ ...chunk({}), choices: [], usage });

function record(chunks: ChatChunk[], maxChars = 100_000): ChatCompletion | undefined {
  const recorder = new AnswerRecorder(maxChars);
  for (const c of chunks) recorder.push(c);
  return recorder.answer();
}

describe("a cached answer, streamed and recorded again", () => {
  const cases: Array<[string, ChatCompletion]> = [
    [
      "plain text, with every label",
      answer([{ content: "Hello there." }], { usage: USAGE, system_fingerprint: "fp_1", service_tier: "default" }),
    ],
    [
      "tool calls only, content null",
      answer([{ tool_calls: [call("call_1", "weather", '{"city":"Paris"}'), call("call_2", "time", "{}")] }], {
        usage: USAGE,
      }),
    ],
    ["text beside a tool call", answer([{ content: "Looking.", tool_calls: [call("call_1", "weather", "{}")] }])],
    ["two choices", answer([{ content: "One." }, { content: "Two." }], { usage: USAGE })],
    ["reasoning and text", answer([{ content: "42.", reasoning_content: "Six times seven." }], { usage: USAGE })],
    ["a refusal", answer([{ refusal: "I can't help with that." }])],
    ["no usage", answer([{ content: "Hi." }])],
    // A reasoning model cut off before it wrote anything answers "" (where a call or refusal alone has null).
    ["empty text", answer([{ content: "" }])],
  ];

  it.each(cases)("%s: comes back as it was", (_, original) => {
    expect(record(completionChunks(original))).toStrictEqual(original);
  });

  it("streams a choice as a role chunk, one delta of text, a delta per call, a finish chunk, then usage", () => {
    const original = answer(
      [{ content: "Looking.", tool_calls: [call("c1", "a", "{}"), call("c2", "b", '{"x":1}')] }],
      {
        usage: USAGE,
        system_fingerprint: "fp_1",
      },
    );
    const chunks = completionChunks(original);
    const labels = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1_700_000_000, model: "gpt-4.1-mini" };
    for (const c of chunks) expect(c).toMatchObject({ ...labels, system_fingerprint: "fp_1" });
    expect(chunks.map((c) => c.choices[0] ?? c.usage)).toStrictEqual([
      { index: 0, delta: { role: "assistant", content: "", refusal: null }, finish_reason: null, logprobs: null },
      { index: 0, delta: { content: "Looking.", refusal: null }, finish_reason: null, logprobs: null },
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "a", arguments: "{}" } }] },
        finish_reason: null,
        logprobs: null,
      },
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 1, id: "c2", type: "function", function: { name: "b", arguments: '{"x":1}' } }],
        },
        finish_reason: null,
        logprobs: null,
      },
      { index: 0, delta: {}, finish_reason: "tool_calls", logprobs: null },
      USAGE,
    ]);
    expect(chunks.at(-1)?.choices).toStrictEqual([]);
    expect("service_tier" in chunks[0]!).toBe(false);
  });

  it("has no usage chunk for an answer without usage", () => {
    expect(completionChunks(answer([{ content: "Hi." }])).every((c) => c.choices.length === 1)).toBe(true);
  });
});

describe("AnswerRecorder on a provider's stream", () => {
  it("joins text split over many chunks, with the usage of the final chunk and the first chunk's labels", () => {
    const chunks = [
      chunk({ role: "assistant", content: "", refusal: null }),
      ...["The ", "quick ", "brown ", "fox."].map((t) => chunk({ content: t })),
      chunk({}, "stop"),
      usageChunk(),
    ];
    expect(record(chunks)).toStrictEqual({
      id: "chatcmpl-9",
      object: "chat.completion",
      created: 1_700_000_100,
      model: "gpt-4.1-2025-04-14",
      system_fingerprint: "fp_abc",
      service_tier: "default",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "The quick brown fox.", refusal: null },
          finish_reason: "stop",
          logprobs: null,
        },
      ],
      usage: USAGE,
    });
  });

  it("merges tool calls by index, their arguments split over several deltas, and leaves content null", () => {
    const chunks = [
      chunk({
        role: "assistant",
        content: null,
        tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "weather", arguments: "" } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "time", arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"tz":' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '"CET"}' } }] }),
      chunk({}, "tool_calls"),
      usageChunk(),
    ];
    expect(record(chunks)?.choices[0]).toStrictEqual({
      index: 0,
      message: {
        role: "assistant",
        content: null,
        refusal: null,
        tool_calls: [call("call_a", "weather", '{"city":"Paris"}'), call("call_b", "time", '{"tz":"CET"}')],
      },
      finish_reason: "tool_calls",
      logprobs: null,
    });
  });

  it("tells parallel calls all numbered 0 apart by their ids, as the sinks do", () => {
    const chunks = [
      chunk({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "f", arguments: "{" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: "}" } }] }),
      chunk({ tool_calls: [{ index: 0, id: "call_b", type: "function", function: { name: "g", arguments: "{}" } }] }),
      chunk({}, "tool_calls"),
    ];
    expect(record(chunks)?.choices[0]?.message.tool_calls).toStrictEqual([
      call("call_a", "f", "{}"),
      call("call_b", "g", "{}"),
    ]);
  });

  it("keeps reasoning_content apart from the text, and a chunk without a delta (Azure's filter results) adds nothing", () => {
    const chunks = [
      { ...usageChunk(), usage: undefined },
      chunk({ role: "assistant", content: "" }),
      chunk({ reasoning_content: "Six " }),
      chunk({ reasoning_content: "times seven." }),
      chunk({ content: "4" }),
      chunk({ content: "2." }),
      { ...chunk({}), choices: [{ index: 0, finish_reason: null }] } as unknown as ChatChunk,
      chunk({}, "stop"),
    ];
    expect(record(chunks)?.choices[0]?.message).toStrictEqual({
      role: "assistant",
      content: "42.",
      refusal: null,
      reasoning_content: "Six times seven.",
    });
  });

  it("rebuilds each of several choices, interleaved, in index order", () => {
    const chunks = [
      chunk({ role: "assistant", content: "" }, null, 1),
      chunk({ role: "assistant", content: "" }, null, 0),
      chunk({ content: "B" }, null, 1),
      chunk({ content: "A" }, null, 0),
      chunk({}, "length", 1),
      chunk({}, "stop", 0),
    ];
    const rebuilt = record(chunks);
    expect(rebuilt?.choices.map((c) => [c.index, c.message.content, c.finish_reason])).toStrictEqual([
      [0, "A", "stop"],
      [1, "B", "length"],
    ]);
    expect(rebuilt && "usage" in rebuilt).toBe(false);
  });

  it("gives nothing for a stream that did not finish", () => {
    expect(record([])).toBeUndefined();
    expect(record([chunk({ content: "The quick" })])).toBeUndefined();
    // The usage chunk alone, or one choice of two finished, is not an answer either.
    expect(record([usageChunk()])).toBeUndefined();
    expect(
      record([chunk({ content: "A" }, "stop", 0), chunk({ content: "B" }, null, 1), usageChunk()]),
    ).toBeUndefined();
  });

  it("gives nothing once the text outgrows maxChars, counting reasoning and tool arguments too", () => {
    const text = [chunk({ content: "12345" }), chunk({ content: "67890" }), chunk({}, "stop")];
    expect(record(text, 10)?.choices[0]?.message.content).toBe("1234567890");
    expect(record(text, 9)).toBeUndefined();
    const reasoning = [chunk({ reasoning_content: "12345" }), chunk({ content: "67890" }), chunk({}, "stop")];
    expect(record(reasoning, 9)).toBeUndefined();
    const args = [
      chunk({ tool_calls: [{ index: 0, id: "c", type: "function", function: { name: "f", arguments: "123456" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: "7890" } }] }),
      chunk({}, "tool_calls"),
    ];
    expect(record(args, 9)).toBeUndefined();
    // Later chunks do not bring it back.
    expect(record([...text.slice(0, 2), chunk({ content: "" }), ...text.slice(2)], 9)).toBeUndefined();
  });
});

describe("recordingSink", () => {
  it("passes the inner sink's frames unchanged, has no pushRaw, and records what passes", () => {
    const seen: ChatChunk[] = [];
    const inner: ChatSink = {
      push: (c) => (seen.push(c), [`frame ${seen.length}`]),
      pushRaw: () => ["raw"],
      end: () => ["end"],
      error: (message) => [`error: ${message}`],
    };
    const recorder = new AnswerRecorder(1000);
    const sink = recordingSink(inner, recorder);
    expect(sink.pushRaw).toBeUndefined();
    const original = answer([{ content: "Hi." }], { usage: USAGE });
    const chunks = completionChunks(original);
    expect(chunks.map((c) => sink.push(c))).toStrictEqual(chunks.map((_, i) => [`frame ${i + 1}`]));
    expect(seen).toStrictEqual(chunks);
    expect(sink.end()).toStrictEqual(["end"]);
    expect(sink.error("cut off")).toStrictEqual(["error: cut off"]);
    expect(recorder.answer()).toStrictEqual(original);
  });
});

describe("replaying to a /v1/chat/completions client", () => {
  const frames = (sink: ChatSink, chunks: ChatChunk[]) => [...chunks.flatMap((c) => sink.push(c)), ...sink.end()];
  const data = (frame: string) => frame.replace(/^data: /, "").replace(/\n\n$/, "");
  const original = answer([{ content: "Paris.", tool_calls: [call("c1", "weather", '{"city":"Paris"}')] }], {
    usage: USAGE,
  });

  it("writes frames that parse to the chunks, the model named as the gateway names it", () => {
    const chunks = completionChunks(original);
    const written = frames(chatChunkSink("openai/gpt-4.1-mini", true), chunks);
    expect(written.at(-1)).toBe("data: [DONE]\n\n");
    const parsed = written.slice(0, -1).map((f) => JSON.parse(data(f)) as ChatChunk);
    expect(parsed).toStrictEqual(chunks.map((c) => ({ ...c, model: "openai/gpt-4.1-mini" })));
    expect(record(parsed)).toStrictEqual({ ...original, model: "openai/gpt-4.1-mini" });
  });

  it("leaves out the usage chunk when the client did not ask for it", () => {
    const written = frames(chatChunkSink("m", false), completionChunks(original));
    expect(written).toHaveLength(completionChunks(original).length);
    expect(written.some((f) => f.includes('"usage"'))).toBe(false);
  });
});
