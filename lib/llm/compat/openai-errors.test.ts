import { describe, expect, it } from "vitest";
import { toOpenAIError } from "./openai-errors.ts";

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
