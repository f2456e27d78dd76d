import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { EventSink, EventSource } from "../http/event-stream.ts";
import { eventStreamBody, writeEventStream } from "./event-stream-node.ts";

const encoder = new TextEncoder();

/** A source the test drives: events are sent when the test says, and cancel is recorded. */
function drivenSource(first?: string) {
  let sink: EventSink | undefined;
  const state = { cancelled: false };
  const source: EventSource = {
    start(s) {
      sink = s;
      if (first) s.enqueue(encoder.encode(first));
    },
    cancel() {
      state.cancelled = true;
    },
  };
  return { source, state, send: (text: string) => sink!.enqueue(encoder.encode(text)), close: () => sink!.close() };
}

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function serve(source: EventSource): Promise<string> {
  server = http.createServer((_req, res) => {
    writeEventStream(res, 200, { "X-Request-Id": "req-1" }, source);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("writeEventStream on Node's response", () => {
  it("sends the head at once, each event as it comes, the headers set before, and ends when the source closes", async () => {
    const s = drivenSource();
    const res = await fetch(await serve(s.source));
    // The head arrived before any event existed.
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("x-request-id")).toBe("req-1");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    s.send("data: one\n\n");
    expect(decoder.decode((await reader.read()).value)).toBe("data: one\n\n");
    s.send("data: two\n\n");
    expect(decoder.decode((await reader.read()).value)).toBe("data: two\n\n");
    s.close();
    expect((await reader.read()).done).toBe(true);
    expect(s.state.cancelled).toBe(false);
  });

  it("sends an event already at hand with the head", async () => {
    const s = drivenSource("data: first\n\n");
    const res = await fetch(await serve(s.source));
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: first\n\n");
    s.close();
  });

  it("cancels the source when the client leaves, and writes nothing after", async () => {
    const s = drivenSource("data: first\n\n");
    const res = await fetch(await serve(s.source));
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    const deadline = Date.now() + 3000;
    while (!s.state.cancelled && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(s.state.cancelled).toBe(true);
    expect(() => s.send("data: late\n\n")).not.toThrow();
  });
});

describe("eventStreamBody for the Fetch adapter", () => {
  it("is a ReadableStream over the same source", async () => {
    const s = drivenSource("data: a\n\n");
    const body = eventStreamBody(s.source);
    s.send("data: b\n\n");
    s.close();
    expect(await new Response(body).text()).toBe("data: a\n\ndata: b\n\n");
  });
});
