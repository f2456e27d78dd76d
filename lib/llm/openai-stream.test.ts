import { describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import type { ChatPart } from "./chat-types.ts";
import { PartFeed } from "./openai-stream.ts";

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
      { type: "finish", usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, reason: "stop" },
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
