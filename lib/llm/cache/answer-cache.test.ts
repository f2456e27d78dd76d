import { describe, expect, it } from "vitest";
import type { ChatCompletion } from "../wire/types.ts";
import { RequestCache } from "./answer-cache.ts";
import { MemoryAnswerStore } from "./store.ts";

const settings = { ttlMs: 60_000, maxEntryBytes: 2_000, maxBytes: 1_000_000 };
const answer = (content: string, extra: object = {}): ChatCompletion => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "xai/grok-4",
  choices: [
    {
      index: 0,
      message: { role: "assistant", content, refusal: null },
      finish_reason: "stop",
      logprobs: null,
      ...extra,
    },
  ],
});
const entry = (a: ChatCompletion) => ({
  answer: a,
  provider: "xai",
  model: "grok-4",
  promptTokens: 3,
  completionTokens: 2,
});
const replayable = (a: ChatCompletion) => a.choices.every((c) => !c.logprobs);

describe("RequestCache", () => {
  const cacheOn = (store: MemoryAnswerStore, key: string, maxAgeS = 60, store_ = true) =>
    new RequestCache(store, settings, "k:key_1", key, { maxAgeS, store: store_ }, replayable);

  it("gives back what it kept, parsed once however often it is read", async () => {
    const store = new MemoryAnswerStore(1_000_000);
    await cacheOn(store, "q").write(entry(answer("Kept.")));
    const first = await cacheOn(store, "q").read();
    expect(first).toMatchObject({ provider: "xai", model: "grok-4", promptTokens: 3, ageS: 0 });
    expect(first!.answer.choices[0]!.message.content).toBe("Kept.");
    const second = await cacheOn(store, "q").read();
    expect(second!.answer).toBe(first!.answer);
  });

  it("reads nothing for max-age 0, and keeps nothing it may not or cannot replay", async () => {
    const store = new MemoryAnswerStore(1_000_000);
    await cacheOn(store, "q").write(entry(answer("Kept.")));
    expect(await cacheOn(store, "q", 0).read()).toBeUndefined();
    await cacheOn(store, "not-stored", 60, false).write(entry(answer("No.")));
    await cacheOn(store, "too-big").write(entry(answer("x".repeat(3_000))));
    await cacheOn(store, "logprobs").write(
      entry(answer("With logprobs.", { logprobs: { content: [], refusal: null } })),
    );
    for (const key of ["not-stored", "too-big", "logprobs"]) expect(await cacheOn(store, key).read()).toBeUndefined();
  });
});
