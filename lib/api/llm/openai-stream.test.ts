import { describe, expect, it } from "vitest";
import { providerEntry } from "../../upstream/llm-catalogue.ts";
import { chatCompletionsBody, isOpenAIReasoningModel, relayParts } from "./openai-stream.ts";

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

describe("relayParts", () => {
  const body = (events: string[], onCancel?: () => void) => {
    const bytes = new TextEncoder();
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (const e of events) controller.enqueue(bytes.encode(e));
      },
      cancel: onCancel,
    });
  };

  it("yields the decoded parts and ends with the finish once the body ends", async () => {
    const events = [
      'data: {"model":"m","choices":[{"delta":{"content":"é"}}]}\n\n',
      'data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\n',
    ];
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        // A two-byte character cut between chunks is decoded whole.
        const all = new TextEncoder().encode(events.join(""));
        const cut = all.indexOf(0xc3) + 1;
        controller.enqueue(all.slice(0, cut));
        controller.enqueue(all.slice(cut));
        controller.close();
      },
    });
    const parts = [];
    for await (const p of relayParts(source)) parts.push(p);
    expect(parts).toEqual([
      { type: "model", id: "m" },
      { type: "text", text: "é" },
      { type: "finish", usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } },
    ]);
  });

  it("throws the provider's error and cancels the body, which aborts the upstream request", async () => {
    let cancelled = false;
    const parts = relayParts(
      body(
        ['data: {"choices":[{"delta":{"content":"a"}}]}\n\n', 'data: {"error":{"message":"boom"}}\n\n'],
        () => (cancelled = true),
      ),
    );
    await expect(parts.next()).resolves.toMatchObject({ value: { type: "text", text: "a" } });
    await expect(parts.next()).rejects.toThrow("boom");
    expect(cancelled).toBe(true);
  });

  it("stops with a 502 naming the service once the body passes the cap, and cancels it", async () => {
    let cancelled = false;
    const chunk = 'data: {"choices":[{"delta":{"content":"a"}}]}\n\n';
    const parts = relayParts(
      body([chunk, chunk, chunk], () => (cancelled = true)),
      "groq",
      chunk.length * 2,
    );
    await expect(parts.next()).resolves.toMatchObject({ value: { type: "text", text: "a" } });
    await expect(parts.next()).resolves.toMatchObject({ value: { type: "text", text: "a" } });
    await expect(parts.next()).rejects.toMatchObject({
      status: 502,
      message: `groq sent a response larger than ${chunk.length * 2} bytes`,
    });
    expect(cancelled).toBe(true);
  });

  it("cancels the body when the caller stops reading", async () => {
    let cancelled = false;
    const parts = relayParts(body(['data: {"choices":[{"delta":{"content":"a"}}]}\n\n'], () => (cancelled = true)));
    await parts.next();
    await parts.return(undefined);
    expect(cancelled).toBe(true);
  });
});
