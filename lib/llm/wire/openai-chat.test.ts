import { describe, expect, it } from "vitest";
import { providerEntry } from "../../upstream/llm-catalogue.ts";
import {
  chatCompletionsBody,
  createChunkDecoder,
  isOpenAIReasoningModel,
  MODEL_FIELD,
  needsReading,
  toOpenAIError,
  type DecodedPart,
} from "./openai-chat.ts";

const chunk = (delta: object, extra: object = {}) =>
  JSON.stringify({
    id: "c1",
    object: "chat.completion.chunk",
    model: "grok-4-fast",
    choices: [{ index: 0, delta }],
    ...extra,
  });

describe("reading a provider's chunk only when it must", () => {
  it("parses chunks with usage or an error, and passes the rest as text", () => {
    expect(needsReading(chunk({ content: "Hi" }))).toBe(false);
    expect(needsReading(chunk({}, { usage: { prompt_tokens: 3, completion_tokens: 4 } }))).toBe(true);
    expect(needsReading(JSON.stringify({ error: { message: "overloaded" } }))).toBe(true);
    // A null usage (OpenAI sends one on every chunk with include_usage) carries nothing to read.
    expect(needsReading(chunk({ content: "Hi" }, { usage: null }))).toBe(false);
  });

  it("is not fooled by a model writing the same words: inside a JSON string the quotes are escaped", () => {
    expect(needsReading(chunk({ content: 'the "error" and "usage":{ fields' }))).toBe(false);
  });

  it("finds the top-level model, whatever the spacing, to rename it", () => {
    expect(MODEL_FIELD.exec(chunk({ content: 'say "model":"x"' }))?.[1]).toBe('"grok-4-fast"');
    expect(MODEL_FIELD.exec('{"id":"a", "model" : "m\\"1", "choices":[]}')?.[1]).toBe('"m\\"1"');
  });
});

describe("toOpenAIError", () => {
  it("turns Form A and Form B into OpenAI's error object, by status", () => {
    expect(toOpenAIError(401, { error: "missing API key" })).toEqual({
      error: { message: "missing API key", type: "authentication_error", param: null, code: null },
    });
    expect(
      toOpenAIError(429, { error: { code: "rate_limit_exceeded", message: "slow down", retry_after: 3 } as never }),
    ).toEqual({ error: { message: "slow down", type: "rate_limit_error", param: null, code: "rate_limit_exceeded" } });
    expect(toOpenAIError(502, { error: "xai failed" })?.error).toMatchObject({ type: "api_error" });
  });

  it("names the field a validation message starts with as param", () => {
    expect(toOpenAIError(400, { error: "invalid request: messages.0.role: Invalid option" })?.error).toMatchObject({
      param: "messages.0.role",
      type: "invalid_request_error",
    });
  });

  it("leaves bodies that are not the gateway's errors alone", () => {
    expect(toOpenAIError(500, { nothing: true } as never)).toBeNull();
  });
});

const xai = providerEntry("xai")!;
const openai = providerEntry("openai")!;
const chat = {
  system: "Be brief.",
  messages: [{ role: "user" as const, content: "Hi" }],
  maxTokens: 50,
  temperature: 0.2,
};

describe("chatCompletionsBody", () => {
  it("sends the system prompt first and asks for usage in the stream", () => {
    expect(chatCompletionsBody(xai, { modelId: "grok-4", ...chat })).toEqual({
      model: "grok-4",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
      max_tokens: 50,
      temperature: 0.2,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(chatCompletionsBody(xai, { modelId: "grok-4", ...chat, system: "" }).messages).toEqual([
      { role: "user", content: "Hi" },
    ]);
  });

  it("gives OpenAI's reasoning models a developer prompt and max_completion_tokens, and no temperature", () => {
    const body = chatCompletionsBody(openai, { modelId: "o3-mini", ...chat });
    expect(body).toMatchObject({
      messages: [
        { role: "developer", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
      max_completion_tokens: 50,
    });
    expect(body).not.toHaveProperty("temperature");
    expect(body).not.toHaveProperty("max_tokens");
    expect(chatCompletionsBody(openai, { modelId: "gpt-4o-search-preview", ...chat })).not.toHaveProperty(
      "temperature",
    );
    expect(chatCompletionsBody(openai, { modelId: "gpt-4.1-mini", ...chat })).toMatchObject({
      max_tokens: 50,
      temperature: 0.2,
    });
    // The rule is OpenAI's: another provider's model named like one is left alone.
    expect(chatCompletionsBody(xai, { modelId: "o3", ...chat })).toMatchObject({ max_tokens: 50, temperature: 0.2 });
  });

  it("knows reasoning models by @ai-sdk/openai's rule", () => {
    for (const id of ["o1", "o3-mini", "o4-mini-2025-04-16", "gpt-5", "gpt-5-mini", "gpt-5.1", "gpt-6"])
      expect(isOpenAIReasoningModel(id), id).toBe(true);
    for (const id of ["gpt-4.1", "gpt-4o", "gpt-5-chat-latest", "gpt-3.5-turbo", "omni", "grok-4"])
      expect(isOpenAIReasoningModel(id), id).toBe(false);
  });
});

const event = (data: unknown) => `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
const streamChunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: "c1",
  model: "grok-4-fast-2026",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** Feeds the text in pieces of `size` characters, as a network would cut it, then ends the body. */
function decode(text: string, size = text.length): DecodedPart[] {
  const parts: DecodedPart[] = [];
  const decoder = createChunkDecoder((p) => parts.push(p));
  for (let i = 0; i < text.length; i += size) decoder.feed(text.slice(i, i + size));
  decoder.end();
  return parts;
}

const stream = [
  event(streamChunk({ role: "assistant", content: "" })),
  event(streamChunk({ content: "Hello " })),
  event(streamChunk({ reasoning_content: "thinking…" })),
  event(streamChunk({ content: "world." })),
  event(streamChunk({}, "stop")),
  event({
    id: "c1",
    model: "grok-4-fast-2026",
    choices: [],
    usage: { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 },
  }),
  event("[DONE]"),
].join("");

describe("createChunkDecoder", () => {
  it("reads the model once, the text deltas, and usage and the finish reason into a finish at the end, however the bytes are cut", () => {
    const expected = [
      { type: "model", id: "grok-4-fast-2026" },
      { type: "text", text: "Hello " },
      { type: "text", text: "world." },
      { type: "finish", usage: { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 }, reason: "stop" },
    ];
    expect(decode(stream)).toEqual(expected);
    expect(decode(stream, 7)).toEqual(expected);
    expect(decode(stream.replaceAll("\n", "\r\n"), 3)).toEqual(expected);
  });

  it("relays refusals and the text parts of array content; usage never reported is zero", () => {
    const parts = decode(
      event(
        streamChunk({
          content: [
            { type: "thinking", thinking: [{ type: "text", text: "hmm" }] },
            { type: "text", text: "Part" },
          ],
        }),
      ) + event(streamChunk({ refusal: "I can't." }, "stop")),
    );
    expect(parts).toEqual([
      { type: "model", id: "grok-4-fast-2026" },
      { type: "text", text: "Part" },
      { type: "text", text: "I can't." },
      { type: "finish", usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, reason: "stop" },
    ]);
  });

  it("fails on an error event, and reads nothing after it", () => {
    const parts = decode(
      event(streamChunk({ content: "Hi" })) +
        event({ error: { message: "overloaded", type: "server_error" } }) +
        event(streamChunk({ content: "more" }, "stop")),
    );
    expect(parts.at(-1)).toEqual({ type: "error", message: "overloaded" });
    expect(parts.filter((p) => p.type === "text")).toEqual([{ type: "text", text: "Hi" }]);
  });

  it("fails a stream cut before its finish reason, even after [DONE]", () => {
    expect(decode(event(streamChunk({ content: "Hal" })) + event("[DONE]")).at(-1)).toEqual({
      type: "error",
      message: "ended the stream without a finish reason",
    });
  });

  it("fails on events that are not JSON objects, and on an event too large to buffer", () => {
    expect(decode(event("{oops")).at(-1)).toMatchObject({
      type: "error",
      message: expect.stringMatching(/not a JSON object: \{oops/),
    });
    expect(decode(event("null"))).toEqual([
      { type: "error", message: "sent an event that is not a JSON object: null" },
    ]);
    expect(decode(`data: ${"x".repeat(1.5 * 2 ** 20)}`, 64 * 1024)).toEqual([
      { type: "error", message: "sent an event larger than 1 MB" },
    ]);
  });
});
