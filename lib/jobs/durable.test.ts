import { beforeAll, describe, expect, it } from "vitest";
import { useDatabase } from "../../test/support/use-database.ts";
import { InProcessDurable } from "./durable.ts";
import { InProcessRunner } from "./runner.ts";
import { TaskStore } from "./task-store.ts";

describe("durable tasks in process", () => {
  const t = useDatabase("pglite");
  let store: TaskStore;
  beforeAll(() => {
    store = new TaskStore(t.db);
  });

  it("fails a task past its deadline with 'timed out', aborting its signal", async () => {
    const durable = new InProcessDurable(store, new InProcessRunner(store), { activePerKey: 3, timeoutMs: 300 });
    let aborted = false;
    durable.define(
      "slow",
      (_task, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve((aborted = true)))),
    );
    const task = await durable.submit(
      { id: "key_a", limitKey: "key_a" },
      "slow",
      {},
      { idPrefix: "research", capKinds: ["slow"] },
    );
    expect(task.id).toMatch(/^research_[0-9a-f]{12}$/);
    await expect.poll(async () => (await store.get(task.id))?.status, { timeout: 3000 }).toBe("failed");
    expect((await store.get(task.id))?.error).toBe("timed out after 0 s");
    expect(aborted).toBe(true);
  });
});
