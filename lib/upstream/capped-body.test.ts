import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors.ts";
import { PassThrough } from "node:stream";
import { cappedFetch, readCappedBody, readTextPrefix, streamCappedText, upstreamMaxBytes } from "./capped-body.ts";

const streamOf = (sizes: number[], onPull?: () => void) => {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      onPull?.();
      if (i >= sizes.length) return controller.close();
      controller.enqueue(new Uint8Array(sizes[i++]!).fill(97));
    },
  });
};

describe("capped upstream bodies", () => {
  it("reads a body up to the cap and refuses one past it with 502, without reading the rest", async () => {
    expect((await readCappedBody(new Response(streamOf([10, 10])), "demo", 20)).length).toBe(20);
    let pulls = 0;
    const over = readCappedBody(new Response(streamOf([10, 10, 10, 10, 10], () => pulls++)), "demo", 25);
    await expect(over).rejects.toMatchObject({ status: 502, message: "demo sent a response larger than 25 bytes" });
    expect(pulls).toBeLessThan(5);
  });

  it("refuses a declared Content-Length past the cap before reading", async () => {
    const res = new Response("x".repeat(100), { headers: { "content-length": "100" } });
    await expect(readCappedBody(res, "demo", 50)).rejects.toBeInstanceOf(GatewayError);
  });

  it("reads only a prefix of an error body", async () => {
    expect(await readTextPrefix(new Response(streamOf([3000, 3000, 3000])), 4096)).toHaveLength(4096);
    expect(await readTextPrefix(new Response("short"))).toBe("short");
  });

  it("takes UPSTREAM_MAX_BYTES, else 64 MiB", () => {
    expect(upstreamMaxBytes({ UPSTREAM_MAX_BYTES: "1000" })).toBe(1000);
    expect(upstreamMaxBytes({ UPSTREAM_MAX_BYTES: "nonsense" })).toBe(64 * 1024 * 1024);
    expect(upstreamMaxBytes({})).toBe(64 * 1024 * 1024);
  });

  it("cappedFetch is built once per service", () => {
    expect(cappedFetch("demo")).toBe(cappedFetch("demo"));
  });
});

describe("streamCappedText", () => {
  /** What the listener was told, once the body is over. */
  const told = (body: PassThrough, maxBytes: number, text?: (t: string) => void) =>
    new Promise<string[]>((resolve) => {
      const out: string[] = [];
      streamCappedText(body, "groq", maxBytes, {
        text: (t) => {
          text?.(t);
          out.push(t);
        },
        end: () => resolve([...out, "end"]),
        fail: (err) => resolve([...out, `fail: ${err.message}`]),
      });
    });

  it("hands on each read as text, a character cut between reads whole, then ends once", async () => {
    const body = new PassThrough();
    const all = Buffer.from("ab é cd");
    const cut = all.indexOf(0xc3) + 1;
    const result = told(body, 100);
    body.write(all.subarray(0, cut));
    body.end(all.subarray(cut));
    expect((await result).join("")).toBe("ab é cdend");
  });

  it("fails with a 502 naming the service past the cap, and destroys the body", async () => {
    const body = new PassThrough();
    const result = told(body, 4);
    body.write("abc");
    body.write("def");
    expect(await result).toEqual(["abc", "fail: groq sent a response larger than 4 bytes"]);
    expect(body.destroyed).toBe(true);
  });

  it("fails a body that closes before its end, and one whose listener throws", async () => {
    const cut = new PassThrough();
    const closed = told(cut, 100);
    cut.write("abc");
    await new Promise((r) => setTimeout(r, 10));
    cut.destroy();
    expect(await closed).toEqual(["abc", "fail: the stream closed before it ended"]);

    const body = new PassThrough();
    const thrown = told(body, 100, () => {
      throw new Error("the client is gone");
    });
    body.write("abc");
    expect(await thrown).toEqual(["fail: the client is gone"]);
    expect(body.destroyed).toBe(true);
  });
});
