import { describe, expect, it } from "vitest";
import { StreamAnswer } from "../gateway/pipeline/answer.ts";
import { chatStreamAnswer } from "./usage-report.ts";

describe("chatStreamAnswer", () => {
  it("streams the chat's events and meters its provider, model, tokens, features and bytes when it ends", async () => {
    const source = { start: () => {}, cancel: () => {} };
    const answer = chatStreamAnswer({
      source,
      finished: Promise.resolve({
        usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
        model: "claude-sonnet-4-5",
        provider: "anthropic",
        complete: true,
        bytes: 2048,
        features: { web_search: 2 },
      }),
    });
    expect(answer).toBeInstanceOf(StreamAnswer);
    expect(answer.source).toBe(source);
    expect(await answer.metered).toEqual({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      promptTokens: 12,
      completionTokens: 5,
      features: { web_search: 2 },
      bytesOut: 2048,
    });
  });
});
