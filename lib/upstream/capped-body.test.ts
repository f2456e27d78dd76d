import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors.ts";
import { cappedFetch, readCappedBody, readTextPrefix, upstreamMaxBytes } from "./capped-body.ts";

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
