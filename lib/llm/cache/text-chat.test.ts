import { describe, expect, it } from "vitest";
import { chatCacheKey } from "./canonical.ts";
import { answerOfCompletion, completionOfAnswer, textChatQuestion } from "./text-chat.ts";

describe("the gateway's own text chat in the cache's pivot form", () => {
  it("keeps an answer as a one-choice completion and gives it back as it came", () => {
    const r = {
      content: "Hello.",
      model: "grok-4-0709",
      provider: "xai",
      usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
    };
    const kept = answerOfCompletion(r, "req-1", "xai/grok-4");
    expect(kept.model).toBe("xai/grok-4");
    expect(kept.choices[0]!.message.content).toBe("Hello.");
    expect(completionOfAnswer(kept, r.provider, r.model)).toEqual(r);
  });

  it("keys only what decides the answer: routing fields, fallbacks and streaming change nothing", () => {
    const messages = [{ role: "user", content: "hi" }];
    const plain = chatCacheKey("xai/grok-4", textChatQuestion({ messages }));
    const routed = { messages, stream: false, fallback: ["openai"], provider: "xai", gateway_route: "fallback" };
    expect(chatCacheKey("xai/grok-4", textChatQuestion(routed))).toBe(plain);
    expect(chatCacheKey("xai/grok-4", textChatQuestion({ messages, temperature: 0 }))).not.toBe(plain);
    // The compatible surfaces' same question has the same key.
    expect(chatCacheKey("xai/grok-4", { model: "xai/grok-4", messages })).toBe(plain);
  });
});
