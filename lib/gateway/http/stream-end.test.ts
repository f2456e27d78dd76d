import { describe, expect, it } from "vitest";
import { untilStreamEnds } from "./stream-end.ts";

const chunks = (...parts: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const p of parts) controller.enqueue(new TextEncoder().encode(p));
      controller.close();
    },
  });
const settled = (p: Promise<void>) =>
  Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 20))]);

describe("untilStreamEnds", () => {
  it("passes every chunk through and ends only once the body is read to the end", async () => {
    const { body, ended } = untilStreamEnds(chunks("a", "b"));
    expect(await settled(ended)).toBe(false);
    expect(await new Response(body).text()).toBe("ab");
    expect(await settled(ended)).toBe(true);
  });

  it("ends when the reader cancels (the client left) and when the source fails", async () => {
    const open = untilStreamEnds(new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) }));
    await open.body.cancel();
    expect(await settled(open.ended)).toBe(true);
    const broken = untilStreamEnds(new ReadableStream<Uint8Array>({ pull: (c) => c.error(new Error("reset")) }));
    await expect(new Response(broken.body).text()).rejects.toThrow();
    expect(await settled(broken.ended)).toBe(true);
  });
});
