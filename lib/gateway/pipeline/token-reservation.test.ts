import { describe, expect, it } from "vitest";
import { DEFAULT_OUTPUT_RESERVE, estimateTokens, isModelCall } from "./token-reservation.ts";

describe("estimateTokens", () => {
  const chat = (extra: object = {}) => ({
    model: "xai/grok-4",
    messages: [{ role: "user", content: "Count me." }],
    ...extra,
  });

  it("reserves the text's characters over 4 and the request's maximum output", () => {
    // "xai/grok-4" + "user" + "Count me." = 23 characters: 6 tokens.
    expect(estimateTokens("/v1/chat/completions", chat({ max_tokens: 50 }))).toBe(56);
    expect(estimateTokens("/v1/chat/completions", chat({ max_completion_tokens: 70 }))).toBe(76);
    expect(estimateTokens("/v1/responses", { model: "m", input: "x".repeat(40), max_output_tokens: 10 })).toBe(21);
  });

  it("reserves the default output without a maximum, and none for embeddings", () => {
    expect(estimateTokens("/v1/chat/completions", chat())).toBe(6 + DEFAULT_OUTPUT_RESERVE);
    expect(estimateTokens("/v1/embeddings", { model: "text-embedding-3-small", input: ["abcd", "efgh"] })).toBe(8);
  });

  it("counts an inline image as one image, not its bytes", () => {
    const image = { type: "image_url", image_url: { url: `data:image/png;base64,${"A".repeat(400_000)}` } };
    const withImage = chat({ messages: [{ role: "user", content: [image] }], max_tokens: 1 });
    expect(estimateTokens("/v1/chat/completions", withImage)).toBeLessThan(1_100);
  });
});

describe("isModelCall", () => {
  it("reserves for bodies with messages, an input or a prompt, and not for the llm area's other requests", () => {
    expect(isModelCall({ messages: [] })).toBe(true);
    expect(isModelCall({ input: "text" })).toBe(true);
    expect(isModelCall({ prompt: "a cat" })).toBe(true);
    expect(isModelCall(undefined)).toBe(false);
    expect(isModelCall({ task: "summarise", budget: "cheap" })).toBe(false);
    expect(isModelCall({ provider: "openai", secret: "sk-..." })).toBe(false);
  });
});
