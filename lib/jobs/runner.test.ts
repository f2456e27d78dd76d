import { beforeAll, describe, expect, it } from "vitest";
import { useDatabase } from "../../test/support/use-database.ts";
import { RateLimitError } from "../errors.ts";
import { InProcessRunner, QUEUE_RETRY_AFTER_S, roundRobinPosition } from "./runner.ts";
import { TaskStore } from "./task-store.ts";

/** A key never rotated: its own lineage. */
const owner = (id: string) => ({ id, limitKey: id });

describe("the job runner's fairness", () => {
  const t = useDatabase("pglite");
  let store: TaskStore;
  beforeAll(() => {
    store = new TaskStore(t.db);
  });

  it("starts another key's first job right after the running one, not behind one key's 100 queued jobs", async () => {
    const runner = new InProcessRunner(store, { concurrency: 1, queuedPerKey: 1000 });
    const started: string[] = [];
    const work = async (task: { ownerKeyId: string | null }) => void started.push(task.ownerKeyId!);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await runner.submit(
      owner("key_busy"),
      () => store.create("batch", "key_busy"),
      async (t) => {
        started.push(t.ownerKeyId!);
        await gate;
      },
    );
    await Promise.all(
      Array.from({ length: 99 }, () => runner.submit(owner("key_busy"), () => store.create("batch", "key_busy"), work)),
    );
    await runner.submit(owner("key_new"), () => store.create("batch", "key_new"), work);
    release();
    await runner.drained();
    expect(started).toHaveLength(101);
    expect(started.indexOf("key_new")).toBeLessThanOrEqual(2);
  });

  it("refuses a key's job past its queued quota with 429 before writing a row, without touching other keys", async () => {
    const runner = new InProcessRunner(store, { concurrency: 1, queuedPerKey: 2 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const hold = async () => void (await gate);
    await runner.submit(owner("key_q"), () => store.create("batch", "key_q"), hold); // running: not queued
    const waiting = await runner.submit(owner("key_q"), () => store.create("batch", "key_q"), hold);
    await runner.submit(owner("key_q"), () => store.create("batch", "key_q"), hold);
    expect(runner.queuedFor("key_q")).toBe(2);
    const before = await t.db.prisma.task.count({ where: { ownerKeyId: "key_q" } });
    const refused = await runner
      .submit(owner("key_q"), () => store.create("batch", "key_q"), hold)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitError);
    expect(refused).toMatchObject({
      status: 429,
      retryAfter: QUEUE_RETRY_AFTER_S,
      headers: { "Retry-After": String(QUEUE_RETRY_AFTER_S) },
    });
    expect((refused as Error).message).toMatch(/2 jobs waiting to start \(at most 2\)/);
    expect(await t.db.prisma.task.count({ where: { ownerKeyId: "key_q" } })).toBe(before);
    await expect(
      runner.submit(owner("key_other"), () => store.create("batch", "key_other"), hold),
    ).resolves.toMatchObject({
      status: "pending",
    });

    // A cancelled job that never started stops counting at once.
    await runner.cancel(waiting.id);
    expect(runner.queuedFor("key_q")).toBe(1);
    await expect(runner.submit(owner("key_q"), () => store.create("batch", "key_q"), hold)).resolves.toMatchObject({
      status: "pending",
    });
    release();
    await runner.drained();
  });

  it("counts submissions still being written, so parallel requests cannot all pass the quota", async () => {
    const runner = new InProcessRunner(store, { concurrency: 1, queuedPerKey: 3 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await runner.submit(
      owner("key_p"),
      () => store.create("batch", "key_p"),
      async () => void (await gate),
    );
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        runner.submit(
          owner("key_p"),
          () => store.create("batch", "key_p"),
          async () => {},
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(3);
    expect(
      outcomes
        .filter((o) => o.status === "rejected")
        .every((o) => (o as PromiseRejectedResult).reason instanceof RateLimitError),
    ).toBe(true);
    release();
    await runner.drained();
  });

  it("runs at most runningPerKey of a lineage's jobs at once, leaving slots to other keys; a rotated key shares its lineage's", async () => {
    const runner = new InProcessRunner(store, { concurrency: 3, runningPerKey: 2 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const started: string[] = [];
    const hold = async (task: { ownerKeyId: string | null }) => {
      started.push(task.ownerKeyId!);
      await gate;
    };
    // key_old and key_new are one lineage (key_new replaced key_old).
    const old = { id: "key_old", limitKey: "key_old" };
    const renewed = { id: "key_new", limitKey: "key_old" };
    await runner.submit(old, () => store.create("batch", "key_old"), hold);
    await runner.submit(renewed, () => store.create("batch", "key_new"), hold);
    const third = await runner.submit(renewed, () => store.create("batch", "key_new"), hold);
    const fourth = await runner.submit(old, () => store.create("batch", "key_old"), hold);
    await runner.submit(owner("key_other"), () => store.create("batch", "key_other"), hold);
    // The work starts once its task is marked running.
    await expect.poll(() => started.length, { timeout: 10_000 }).toBe(3);
    expect([...started].sort()).toEqual(["key_new", "key_old", "key_other"]);
    expect(runner.queuedFor("key_old")).toBe(2);
    expect([runner.queuePosition(third.id), runner.queuePosition(fourth.id)]).toEqual([1, 2]);
    release();
    await runner.drained();
    expect(started).toHaveLength(5);
  });

  it("reports its depth (waiting, running) and each started task's kind, outcome and duration as it ends", async () => {
    const ended: [string, string][] = [];
    const runner = new InProcessRunner(store, {
      concurrency: 1,
      onEnded: (kind, outcome, seconds) => {
        expect(seconds).toBeGreaterThanOrEqual(0);
        ended.push([kind, outcome]);
      },
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let running = false;
    await runner.submit(
      owner("key_d"),
      () => store.create("video", "key_d"),
      async () => {
        running = true;
        await gate;
      },
    );
    await runner.submit(
      owner("key_d"),
      () => store.create("batch", "key_d"),
      async () => {
        throw new Error("upstream gone");
      },
    );
    const dropped = await runner.submit(
      owner("key_d"),
      () => store.create("batch", "key_d"),
      async () => {},
    );
    await expect.poll(() => running, { timeout: 10_000 }).toBe(true);
    expect(runner.depth()).toEqual({ waiting: 2, active: 1 });
    // Cancelled before it started: never ran, so no duration.
    await runner.cancel(dropped.id);
    release();
    await runner.drained();
    expect(runner.depth()).toEqual({ waiting: 0, active: 0 });
    expect(ended).toEqual([
      ["video", "completed"],
      ["batch", "failed"],
    ]);
  });
});

describe("roundRobinPosition", () => {
  it("counts one task of each owner per round, owners earlier in turn first", () => {
    // Owners in turn order with 3, 1 and 2 waiting.
    expect(roundRobinPosition([3, 1, 2], 0, 0)).toBe(1);
    expect(roundRobinPosition([3, 1, 2], 1, 0)).toBe(2);
    expect(roundRobinPosition([3, 1, 2], 2, 0)).toBe(3);
    expect(roundRobinPosition([3, 1, 2], 0, 1)).toBe(4);
    expect(roundRobinPosition([3, 1, 2], 2, 1)).toBe(5);
    expect(roundRobinPosition([3, 1, 2], 0, 2)).toBe(6);
  });
});
