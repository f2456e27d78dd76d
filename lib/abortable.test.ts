import { describe, expect, it } from "vitest";
import { pool, untilAborted } from "./abortable.ts";

describe("untilAborted", () => {
  it("settles as the promise does while the signal stays quiet", async () => {
    await expect(untilAborted(Promise.resolve(1), new AbortController().signal)).resolves.toBe(1);
    await expect(untilAborted(Promise.reject(new Error("no")), new AbortController().signal)).rejects.toThrow("no");
  });

  it("rejects with the signal's reason as soon as it aborts, not when the promise settles", async () => {
    const ctl = new AbortController();
    const pending = untilAborted(new Promise(() => {}), ctl.signal);
    ctl.abort(new Error("left"));
    await expect(pending).rejects.toThrow("left");
    await expect(untilAborted(Promise.resolve(1), ctl.signal)).rejects.toThrow("left");
  });
});

describe("pool", () => {
  it("keeps the items' order and runs at most `limit` at a time", async () => {
    let running = 0;
    let most = 0;
    const out = await pool([30, 10, 20, 0], 2, new AbortController().signal, async (ms, i) => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      return `${i}:${ms}`;
    });
    expect(out).toEqual(["0:30", "1:10", "2:20", "3:0"]);
    expect(most).toBe(2);
  });

  it("starts nothing more once the signal aborts and rejects with its reason", async () => {
    const ctl = new AbortController();
    const started: number[] = [];
    const run = pool([1, 2, 3], 1, ctl.signal, async (n) => {
      started.push(n);
      if (n === 1) ctl.abort(new Error("stop"));
      return n;
    });
    await expect(run).rejects.toThrow("stop");
    expect(started).toEqual([1]);
  });
});
