import { beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../test/support/backends.ts";
import { useDatabase } from "../../test/support/use-database.ts";
import { InProcessRunner } from "./runner.ts";
import { TaskStore } from "./task-store.ts";

describe.each(databaseBackends)("tasks on %s", (backend) => {
  const t = useDatabase(backend);
  let store: TaskStore;
  beforeAll(() => {
    store = new TaskStore(t.db);
  });

  it("creates, updates and reads a task only for its owner", async () => {
    const task = await store.create("video", "key_a", { prompt: "a cat" });
    expect(task.status).toBe("pending");
    await store.update(task.id, { status: "running", progress: 0.5 });
    const done = await store.update(task.id, { status: "completed", result: { url: "https://x/v.mp4" } });
    expect(done).toMatchObject({ status: "completed", progress: 0.5, result: { url: "https://x/v.mp4" } });
    expect(done?.completedAt).toBeInstanceOf(Date);
    expect(await store.getForOwner(task.id, "key_a")).not.toBeNull();
    expect(await store.getForOwner(task.id, "key_b")).toBeNull();
    expect((await store.listForOwner("key_a", "video", 10)).map((t) => t.id)).toContain(task.id);
  });

  it("stores upstream text holding NULs or lone surrogates instead of failing the task's save", async () => {
    const task = await store.create("batch", "key_a", { prompt: "a\u0000b", note: "x\ud800" });
    expect(task.input).toEqual({ prompt: "ab", note: "x\ufffd" });
    await store.update(task.id, { status: "running" });
    const done = await store.update(task.id, {
      status: "completed",
      result: { results: [{ content: "model said \u0000 \udc00" }] },
    });
    expect(done?.result).toEqual({ results: [{ content: "model said  \ufffd" }] });
    const failed = await store.create("video", "key_a");
    expect((await store.update(failed.id, { status: "failed", error: "upstream: bad\u0000byte" }))?.error).toBe(
      "upstream: badbyte",
    );
  });

  it("keeps a finished task finished", async () => {
    const task = await store.create("batch", "key_a");
    await store.update(task.id, { status: "cancelled" });
    expect(await store.update(task.id, { status: "completed", result: 1 })).toBeNull();
    expect((await store.get(task.id))?.status).toBe("cancelled");
  });

  it("runs work to completion, records failures, and cancels through the signal", async () => {
    const runner = new InProcessRunner(store, { concurrency: 2 });
    const ok = await store.create("archive", "key_a");
    const bad = await store.create("archive", "key_a");
    const slow = await store.create("archive", "key_a");
    let sawAbort = false;
    let slowStarted!: () => void;
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    runner.enqueue(ok, async (_t, ctx) => {
      await ctx.progress(0.5);
      return { saved: true };
    });
    runner.enqueue(bad, async () => {
      throw new Error("upstream refused");
    });
    runner.enqueue(
      slow,
      (_t, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => resolve((sawAbort = true)));
          slowStarted();
        }),
    );
    // Cancelled once its work runs (on a loaded machine that can be long after 100 ms).
    await started;
    expect((await runner.cancel(slow.id))?.status).toBe("cancelled");
    await runner.drained();
    expect(await store.get(ok.id)).toMatchObject({ status: "completed", progress: 1, result: { saved: true } });
    expect(await store.get(bad.id)).toMatchObject({ status: "failed", error: "upstream refused" });
    expect(await store.get(slow.id)).toMatchObject({ status: "cancelled" });
    expect(sawAbort).toBe(true);
  });

  it("never starts the work of a task cancelled while it was being marked running", async () => {
    const runner = new InProcessRunner(store, { concurrency: 1 });
    const task = await store.create("archive", "key_a");
    let ran = false;
    runner.enqueue(task, async () => {
      ran = true;
      return {};
    });
    // The runner has begun writing "running" (enqueue starts it at once); the cancel lands before that returns.
    expect((await runner.cancel(task.id))?.status).toBe("cancelled");
    await runner.drained();
    expect(ran).toBe(false);
    expect(await store.get(task.id)).toMatchObject({ status: "cancelled" });
  });
});
