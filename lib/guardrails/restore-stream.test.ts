import { describe, expect, it } from "vitest";
import { restoringEvents } from "./restore-stream.ts";

const values = new Map([
  ["[EMAIL_1]", "ada@example.com"],
  ["[PHONE_1]", "+44 20 7946 0958"],
]);

/** Runs `chunks` (raw bytes as a provider's stream would arrive) through the restore, and returns what the caller reads. */
async function through(chunks: string[]): Promise<string> {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let out = "";
  await restoringEvents(
    {
      start(sink) {
        for (const c of chunks) sink.enqueue(encoder.encode(c));
        sink.close();
      },
      cancel() {},
    },
    values,
  ).start({ enqueue: (b) => (out += decoder.decode(b)), close: () => {} });
  return out;
}

const data = (out: string) =>
  out
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);

describe("restoringEvents", () => {
  it("puts back a placeholder an OpenAI stream split over three deltas, before the chunk that finishes", async () => {
    const chunk = (content: string | undefined, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }] })}\n\n`;
    const out = await through([
      chunk("Write to [EM"),
      chunk("AIL"),
      chunk("_1] today"),
      chunk(undefined, "stop"),
      "data: [DONE]\n\n",
    ]);
    const text = data(out)
      .map((d) => (d.choices as { delta: { content?: string } }[])[0]!.delta.content ?? "")
      .join("");
    expect(text).toBe("Write to ada@example.com today");
    expect(out).not.toContain("[EMAIL_1]");
    expect(out.trimEnd().endsWith("data: [DONE]")).toBe(true);
  });

  it("sends what is held as a delta of its own when the text's block ends (Anthropic)", async () => {
    const ev = (type: string, body: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
    const out = await through([
      ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Call [PHO" } }),
      ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: "NE_1]" } }),
      ev("content_block_stop", { index: 0 }),
      ev("message_stop", {}),
    ]);
    const texts = data(out)
      .filter((d) => d.type === "content_block_delta")
      .map((d) => (d.delta as { text: string }).text);
    expect(texts.join("")).toBe("Call +44 20 7946 0958");
    expect(out.indexOf("content_block_stop")).toBeGreaterThan(out.lastIndexOf("text_delta"));
    expect(out).toContain("event: content_block_delta\ndata: ");
  });

  it("restores the Responses surface's deltas and its whole-text done event", async () => {
    const ev = (type: string, body: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
    const out = await through([
      ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "to [EMAIL_" }),
      ev("response.output_text.delta", { output_index: 0, content_index: 0, delta: "1]." }),
      ev("response.output_text.done", { output_index: 0, content_index: 0, text: "to [EMAIL_1]." }),
    ]);
    const events = data(out);
    expect(
      events
        .filter((d) => d.type === "response.output_text.delta")
        .map((d) => d.delta)
        .join(""),
    ).toBe("to ada@example.com.");
    expect(events.find((d) => d.type === "response.output_text.done")!.text).toBe("to ada@example.com.");
  });

  it("leaves the model's own brackets alone, and passes an event that needs nothing through byte for byte", async () => {
    const first = `data: ${JSON.stringify({ content: "see [1] and [EMAIL_9]" })}\n\n`;
    const out = await through([
      first,
      `data: ${JSON.stringify({ content: " and a [" })}\n\n`,
      `data: ${JSON.stringify({ content: "note]" })}\n\n`,
      'data: {"done":true}\n\n',
    ]);
    expect(out.startsWith(first)).toBe(true);
    expect(
      data(out)
        .map((d) => d.content ?? "")
        .join(""),
    ).toBe("see [1] and [EMAIL_9] and a [note]");
  });

  it("puts back a held placeholder start at the end of a stream that stops mid-placeholder, and bytes cut anywhere", async () => {
    const whole = `data: ${JSON.stringify({ content: "mail [EMAIL_1] now" })}\n\ndata: ${JSON.stringify({ content: "[EMA" })}\n\n`;
    const chunks = whole.match(/[\s\S]{1,7}/g)!;
    const out = await through(chunks);
    expect(
      data(out)
        .map((d) => d.content)
        .join(""),
    ).toBe("mail ada@example.com now[EMA");
  });
});
