import { describe, expect, it } from "vitest";
import type { EventSink } from "../gateway/http/event-stream.ts";
import { BodyCapture, cutMarker, cutText } from "./body-capture.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("BodyCapture", () => {
  it("keeps a whole call's request and answer, and nothing for a request that never reached its handler", () => {
    const capture = new BodyCapture(1000);
    expect(capture.bodies()).toBeUndefined();
    capture.keepRequest({ messages: [{ role: "user", content: "Hi" }] });
    capture.keepAnswer('{"content":"Hello"}');
    expect(capture.bodies()).toEqual({
      request: '{"messages":[{"role":"user","content":"Hi"}]}',
      response: '{"content":"Hello"}',
    });
  });

  it("cuts a body at the byte cap, never inside a character's bytes being read as another, and says so", () => {
    expect(cutText("short", 5)).toBe("short");
    const text = "é".repeat(10); // 20 bytes
    const cut = cutText(text, 7);
    expect(cut).toBe(`ééé\uFFFD${cutMarker(20)}`);
    expect(cutMarker(20_000)).toBe("\n… [cut here: 20,000 bytes in all]");
  });

  it("copies a stream's bytes as they are sent, up to the cap, while the caller gets every byte", async () => {
    const capture = new BodyCapture(12);
    capture.keepRequest({ s: 1 });
    const source = {
      start(sink: EventSink) {
        sink.enqueue(bytes("data: one\n\n"));
        sink.enqueue(bytes("data: two\n\n"));
        sink.close();
      },
      cancel() {},
    };
    const sent: string[] = [];
    let closed = false;
    await capture
      .tap(source)
      .start({ enqueue: (b) => sent.push(new TextDecoder().decode(b)), close: () => (closed = true) });
    expect(sent.join("")).toBe("data: one\n\ndata: two\n\n");
    expect(closed).toBe(true);
    // A whole answer's text (an error after the stream began) does not replace what the stream sent.
    capture.keepAnswer("ignored");
    expect(capture.bodies()).toEqual({ request: `{"s":1}`, response: `data: one\n\nd${cutMarker(22)}` });
  });
});
