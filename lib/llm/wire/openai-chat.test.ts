import { describe, expect, it } from "vitest";
import { MODEL_FIELD, needsReading, toOpenAIError } from "./openai-chat.ts";

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
