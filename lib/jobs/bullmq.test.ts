import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useDatabase } from "../../test/support/use-database.ts";
import { BullDurable } from "./bullmq.ts";
import { TaskStore } from "./task-store.ts";

const options = (queue: string, work: boolean) => ({
  activePerKey: 3,
  timeoutMs: 10_000,
  redisUrl: process.env.REDIS_URL!,
  queue,
  work,
  concurrency: 2,
  runningPerKey: 2,
  stalledMs: 30_000,
});
/** A key never rotated: its own lineage. */
const owner = (id: string) => ({ id, limitKey: id });

describe.runIf(process.env.REDIS_URL)("durable tasks on BullMQ", () => {
  const t = useDatabase("pglite");
  let store: TaskStore;
  beforeAll(() => {
    store = new TaskStore(t.db);
  });

  it("a worker started while a task waits runs it once its kinds are defined, rather than failing it", async () => {
    const queue = `test-${randomBytes(4).toString("hex")}`;
    const web = new BullDurable(store, options(queue, false));
    web.define("echo", async () => "unused here");
    const task = await web.submit(owner("key_a"), "echo", { n: 1 }, { idPrefix: "research", capKinds: ["echo"] });

    // A worker process: its runtime (this instance) exists a while before its areas define their kinds.
    const worker = new BullDurable(store, options(queue, true));
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await store.get(task.id))?.status).toBe("pending");
      worker.define("echo", async (_task, ctx) => {
        await ctx.progress(0.5);
        return { echoed: true };
      });
      await expect.poll(async () => (await store.get(task.id))?.status, { timeout: 10_000 }).toBe("completed");
      expect((await store.get(task.id))?.result).toEqual({ echoed: true });
    } finally {
      await Promise.allSettled([worker.close(), web.close()]);
    }
  }, 30_000);

  it("runs at most runningPerKey of one key's tasks at once on its workers: another key's task takes the free slot", async () => {
    const worker = new BullDurable(store, {
      ...options(`test-${randomBytes(4).toString("hex")}`, true),
      runningPerKey: 1,
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    worker.define("hold", async (task) => {
      started.push(task.ownerKeyId!);
      await gate;
      return {};
    });
    const submit = (key: string) => worker.submit(owner(key), "hold", {}, { idPrefix: "research", capKinds: ["hold"] });
    try {
      await submit("key_cap_a");
      const second = await submit("key_cap_a");
      await submit("key_cap_b");
      // Two slots: key A's first task and key B's, while A's second waits out A's cap.
      await expect.poll(() => started.length, { timeout: 15_000 }).toBe(2);
      expect([...started].sort()).toEqual(["key_cap_a", "key_cap_b"]);
      expect((await store.get(second.id))?.status).toBe("pending");
      release();
      await expect.poll(async () => (await store.get(second.id))?.status, { timeout: 15_000 }).toBe("completed");
    } finally {
      release();
      await worker.close();
    }
  }, 40_000);

  it("reports the queue's depth for /metrics and each task's kind, outcome and duration as it ends", async () => {
    const queue = `test-${randomBytes(4).toString("hex")}`;
    const ended: [string, string][] = [];
    const web = new BullDurable(store, options(queue, false));
    const worker = new BullDurable(store, {
      ...options(queue, true),
      onEnded: (kind, outcome) => void ended.push([kind, outcome]),
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const hold = async () => {
      await gate;
      return {};
    };
    web.define("hold", hold);
    try {
      const submit = (key: string) => web.submit(owner(key), "hold", {}, { idPrefix: "research", capKinds: ["hold"] });
      await submit("key_depth_a");
      await submit("key_depth_b");
      // An instance that works nothing reads the queue all instances share: both wait there.
      expect(await web.queueDepth()).toEqual({ waiting: 2, delayed: 0, active: 0 });
      worker.define("hold", hold);
      // Read again once the last read is 5 s old: both running on the worker.
      await expect.poll(async () => (await web.queueDepth())?.active, { timeout: 15_000 }).toBe(2);
      release();
      await expect.poll(() => ended.length, { timeout: 15_000 }).toBe(2);
      expect(ended).toEqual([
        ["hold", "completed"],
        ["hold", "completed"],
      ]);
    } finally {
      release();
      await Promise.allSettled([worker.close(), web.close()]);
    }
  }, 40_000);
});
