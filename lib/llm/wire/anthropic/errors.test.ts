import { describe, expect, it } from "vitest";
import { toAnthropicError } from "./errors.ts";

describe("toAnthropicError", () => {
  it("turns Form A and Form B into Anthropic's error object, by status", () => {
    expect(toAnthropicError(401, { error: "missing API key" })).toEqual({
      type: "error",
      error: { type: "authentication_error", message: "missing API key" },
    });
    expect(toAnthropicError(429, { error: { code: "rate_limit_exceeded", message: "slow down" } })).toEqual({
      type: "error",
      error: { type: "rate_limit_error", message: "slow down" },
    });
    expect(toAnthropicError(413, { error: "request body too large" })?.error).toMatchObject({
      type: "request_too_large",
    });
    expect(toAnthropicError(503, { error: "anthropic is not configured" })?.error).toMatchObject({ type: "api_error" });
  });

  it("leaves bodies that are not the gateway's errors alone", () => {
    expect(toAnthropicError(500, null)).toBeNull();
  });
});
