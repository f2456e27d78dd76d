import { describe, expect, it } from "vitest";
import { providerEntry } from "../upstream/llm-catalogue.ts";
import { PassThrough } from "node:stream";
import type { ChatPart } from "./chat-types.ts";
import { chatCompletionsBody, isOpenAIReasoningModel, PartFeed } from "./openai-stream.ts";

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

describe("PartFeed", () => {
  /** A provider's body: the chunks written as they are given, then ended unless `open`. */
  const body = (chunks: Array<string | Uint8Array>, open = false) => {
    const stream = new PassThrough();
    for (const c of chunks) stream.write(typeof c === "string" ? Buffer.from(c) : c);
    if (!open) stream.end();
    return stream;
  };
  /** Everything a listener is told, in order, once the stream is over. */
  const collect = (feed: PartFeed) =>
    new Promise<Array<ChatPart | { end: true } | { fail: string }>>((resolve) => {
      const told: Array<ChatPart | { end: true } | { fail: string }> = [];
      feed.attach({
        part: (p) => told.push(p),
        end: () => resolve([...told, { end: true }]),
        fail: (err) => resolve([...told, { fail: err.message }]),
      });
    });
  const text = (t: string) => `data: {"choices":[{"delta":{"content":"${t}"}}]}\n\n`;

  it("hands on the decoded parts and ends with the finish once the body ends", async () => {
    const all = new TextEncoder().encode(
      [
        'data: {"model":"m","choices":[{"delta":{"content":"é"}}]}\n\n',
        'data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\n',
      ].join(""),
    );
    // A two-byte character cut between chunks is decoded whole.
    const cut = all.indexOf(0xc3) + 1;
    const feed = new PartFeed(body([all.slice(0, cut), all.slice(cut)]));
    await feed.ready();
    expect(await collect(feed)).toEqual([
      { type: "model", id: "m" },
      { type: "text", text: "é" },
      { type: "finish", usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } },
      { end: true },
    ]);
  });

  it("is ready once output begins, and gives parts that come later to the listener as they come", async () => {
    const stream = body(['data: {"model":"m","choices":[]}\n\n'], true);
    const feed = new PartFeed(stream);
    let ready = false;
    void feed.ready().then(() => (ready = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(ready).toBe(false);
    stream.write(text("a"));
    await new Promise((r) => setTimeout(r, 20));
    expect(ready).toBe(true);
    const told = collect(feed);
    stream.end(text("b") + 'data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\n');
    expect((await told).map((p) => ("type" in p ? p.type : Object.keys(p)[0]))).toEqual([
      "model",
      "text",
      "text",
      "finish",
      "end",
    ]);
  });

  it("rejects ready with the provider's error before any output, and destroys the body", async () => {
    const stream = body(['data: {"error":{"message":"overloaded"}}\n\n'], true);
    const feed = new PartFeed(stream);
    await expect(feed.ready()).rejects.toThrow("overloaded");
    expect(stream.destroyed).toBe(true);
  });

  it("fails with the provider's error after output, keeping what came before it", async () => {
    const stream = body([text("a"), 'data: {"error":{"message":"boom"}}\n\n'], true);
    const feed = new PartFeed(stream);
    await feed.ready();
    expect(await collect(feed)).toEqual([{ type: "text", text: "a" }, { fail: "boom" }]);
    expect(stream.destroyed).toBe(true);
  });

  it("stops with a 502 naming the service once the body passes the cap, and destroys it", async () => {
    const chunk = text("a");
    const stream = body([chunk, chunk, chunk], true);
    const feed = new PartFeed(stream, "groq", chunk.length * 2);
    await feed.ready();
    const told = await collect(feed);
    expect(told.slice(0, 2)).toEqual([
      { type: "text", text: "a" },
      { type: "text", text: "a" },
    ]);
    expect(told[2]).toEqual({ fail: `groq sent a response larger than ${chunk.length * 2} bytes` });
    expect(stream.destroyed).toBe(true);
  });

  it("fails a stream cut before its finish, and one whose listener throws", async () => {
    const cut = new PartFeed(body([text("a")]));
    await cut.ready();
    expect((await collect(cut)).at(-1)).toEqual({ fail: "ended the stream without a finish reason" });

    const stream = body([text("a"), text("b")], true);
    const feed = new PartFeed(stream);
    await feed.ready();
    const failed = await new Promise<string>((resolve) =>
      feed.attach({
        part: () => {
          throw new Error("the client is gone");
        },
        end: () => resolve("ended"),
        fail: (err) => resolve(err.message),
      }),
    );
    expect(failed).toBe("the client is gone");
    expect(stream.destroyed).toBe(true);
  });
});
