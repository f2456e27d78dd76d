import { describe, expect, it } from "vitest";
import { concurrencyLimit } from "./concurrency-limit.ts";

describe("concurrencyLimit", () => {
  it("runs at most `max` tasks at once, in the order given, and passes results and errors through", async () => {
    const limit = concurrencyLimit(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const opens: Array<() => void> = [];
    const gates = Array.from({ length: 5 }, () => new Promise<void>((resolve) => opens.push(resolve)));
    const runs = gates.map((gate, i) =>
      limit(async () => {
        started.push(i);
        peak = Math.max(peak, ++running);
        await gate;
        running -= 1;
        if (i === 3) throw new Error("task 3 failed");
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    // Each one finishing lets exactly one more start, in order.
    for (const open of opens) open();
    expect(await Promise.allSettled(runs)).toEqual([
      { status: "fulfilled", value: 0 },
      { status: "fulfilled", value: 1 },
      { status: "fulfilled", value: 2 },
      { status: "rejected", reason: new Error("task 3 failed") },
      { status: "fulfilled", value: 4 },
    ]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
  });

  it("does not let a task arriving as a slot is handed over make one too many", async () => {
    const limit = concurrencyLimit(1);
    let running = 0;
    let peak = 0;
    const task = async () => {
      peak = Math.max(peak, ++running);
      await new Promise((r) => setTimeout(r, 1));
      running -= 1;
    };
    const first = limit(task);
    const second = limit(task);
    await first;
    // The slot is second's now, though second has not resumed yet.
    const third = limit(task);
    await Promise.all([second, third]);
    expect(peak).toBe(1);
  });
});
