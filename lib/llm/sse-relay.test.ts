import { describe, expect, it } from "vitest";
import { createChunkDecoder, type DecodedPart } from "./sse-relay.ts";

const event = (data: unknown) => `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: "c1",
  model: "grok-4-fast-2026",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** Feeds the text in pieces of `size` characters, as a network would cut it, then ends the body. */
function decode(text: string, size = text.length): DecodedPart[] {
  const parts: DecodedPart[] = [];
  const decoder = createChunkDecoder((p) => parts.push(p));
  for (let i = 0; i < text.length; i += size) decoder.feed(text.slice(i, i + size));
  decoder.end();
  return parts;
}

const stream = [
  event(chunk({ role: "assistant", content: "" })),
  event(chunk({ content: "Hello " })),
  event(chunk({ reasoning_content: "thinking…" })),
  event(chunk({ content: "world." })),
  event(chunk({}, "stop")),
  event({
    id: "c1",
    model: "grok-4-fast-2026",
    choices: [],
    usage: { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 },
  }),
  event("[DONE]"),
].join("");

describe("createChunkDecoder", () => {
  it("reads the model once, the text deltas, and usage into a finish at the end, however the bytes are cut", () => {
    const expected = [
      { type: "model", id: "grok-4-fast-2026" },
      { type: "text", text: "Hello " },
      { type: "text", text: "world." },
      { type: "finish", usage: { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 } },
    ];
    expect(decode(stream)).toEqual(expected);
    expect(decode(stream, 7)).toEqual(expected);
    expect(decode(stream.replaceAll("\n", "\r\n"), 3)).toEqual(expected);
  });

  it("relays refusals and the text parts of array content; usage never reported is zero", () => {
    const parts = decode(
      event(
        chunk({
          content: [
            { type: "thinking", thinking: [{ type: "text", text: "hmm" }] },
            { type: "text", text: "Part" },
          ],
        }),
      ) + event(chunk({ refusal: "I can't." }, "stop")),
    );
    expect(parts).toEqual([
      { type: "model", id: "grok-4-fast-2026" },
      { type: "text", text: "Part" },
      { type: "text", text: "I can't." },
      { type: "finish", usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } },
    ]);
  });

  it("fails on an error event, and reads nothing after it", () => {
    const parts = decode(
      event(chunk({ content: "Hi" })) +
        event({ error: { message: "overloaded", type: "server_error" } }) +
        event(chunk({ content: "more" }, "stop")),
    );
    expect(parts.at(-1)).toEqual({ type: "error", message: "overloaded" });
    expect(parts.filter((p) => p.type === "text")).toEqual([{ type: "text", text: "Hi" }]);
  });

  it("fails a stream cut before its finish reason, even after [DONE]", () => {
    expect(decode(event(chunk({ content: "Hal" })) + event("[DONE]")).at(-1)).toEqual({
      type: "error",
      message: "ended the stream without a finish reason",
    });
  });

  it("fails on events that are not JSON objects, and on an event too large to buffer", () => {
    expect(decode(event("{oops")).at(-1)).toMatchObject({
      type: "error",
      message: expect.stringMatching(/not a JSON object: \{oops/),
    });
    expect(decode(event("null"))).toEqual([
      { type: "error", message: "sent an event that is not a JSON object: null" },
    ]);
    expect(decode(`data: ${"x".repeat(1.5 * 2 ** 20)}`, 64 * 1024)).toEqual([
      { type: "error", message: "sent an event larger than 1 MB" },
    ]);
  });
});
