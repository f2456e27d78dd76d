import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { CallStop } from "../../upstream/call-stop.ts";
import { streamCappedText } from "../../upstream/capped-body.ts";
import { firstBytes } from "./first-bytes.ts";

/** Everything a body hands on once read the way the relay reads it, and how it ended. */
function readAll(body: PassThrough): Promise<{ text: string; ended: boolean }> {
  let text = "";
  return new Promise((resolve) =>
    streamCappedText(body, "demo", 1_000_000, {
      text: (t) => (text += t),
      end: () => resolve({ text, ended: true }),
      fail: () => resolve({ text, ended: false }),
    }),
  );
}

describe("firstBytes: a stream is handed on only once its provider has sent something", () => {
  it("resolves on the first bytes and loses none of them to the reader that follows", async () => {
    const body = new PassThrough();
    const waiting = firstBytes("demo", body, new CallStop());
    body.write("event: one\n\n");
    expect(await waiting).toBe(body);
    const read = readAll(body);
    body.end("event: two\n\n");
    expect(await read).toEqual({ text: "event: one\n\nevent: two\n\n", ended: true });
  });

  it("fails with a 502 when the body ends or its connection closes before any byte", async () => {
    const ended = new PassThrough();
    const endedFirst = firstBytes("demo", ended, new CallStop());
    ended.end();
    await expect(endedFirst).rejects.toMatchObject({
      status: 502,
      message: "demo closed its stream before the first event",
    });
    const reset = new PassThrough();
    const resetFirst = firstBytes("demo", reset, new CallStop());
    reset.destroy(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }));
    await expect(resetFirst).rejects.toMatchObject({ status: 502, message: "demo failed: socket hang up" });
  });

  it("fails as the stop says when the attempt's time runs out first, and destroys the body", async () => {
    const body = new PassThrough();
    const stop = new CallStop();
    const waiting = firstBytes("demo", body, stop);
    stop.abort(new DOMException("no answer within 10 ms", "TimeoutError"));
    // undici destroys a body whose signal aborted; the stop's reason is what it means.
    body.destroy(new DOMException("aborted", "AbortError"));
    await expect(waiting).rejects.toMatchObject({ status: 504 });
    expect(body.destroyed).toBe(true);
  });
});
