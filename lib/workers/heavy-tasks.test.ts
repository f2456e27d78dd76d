import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import * as documents from "../api/documents/pool-tasks.ts";
import * as utils from "../api/utils/pool-tasks.ts";
import * as guardrails from "../guardrails/pool-tasks.ts";
import { emptyJob, poolTask } from "../gateway/runtime/worker-pool.ts";
import { HEAVY_TASKS, implement, runHeavyTask } from "./heavy-tasks.ts";

describe("heavy tasks", () => {
  it("implements every task an area declares for the pool", () => {
    const declared = [...Object.values(utils), ...Object.values(documents), ...Object.values(guardrails), emptyJob].map(
      (t) => t.name,
    );
    expect(declared.length).toBeGreaterThan(0);
    for (const name of declared) expect(HEAVY_TASKS.has(name), name).toBe(true);
  });

  it("runs a task by name and returns a user's error as an outcome, not a throw", async () => {
    await expect(
      runHeavyTask({ task: "keywords", args: { text: "solar panels and solar power", topK: 1 } }),
    ).resolves.toMatchObject({ ok: true, value: [{ keyword: expect.stringContaining("solar") }] });
    const bad = await runHeavyTask({
      task: "pdfExtract",
      args: { pdf: new Uint8Array([1, 2, 3]), includeMetadata: false },
    });
    expect(bad).toEqual({ ok: false, status: 400, message: "pdf is not a PDF document" });
  });

  it("tells the caller when the work begins, once the task's module is loaded", async () => {
    const { port1, port2 } = new MessageChannel();
    const heard = new Promise((resolve) => port1.once("message", resolve));
    const outcome = await runHeavyTask({ task: "keywords", args: { text: "tide and tide", topK: 1 }, started: port2 });
    expect(outcome.ok).toBe(true);
    await expect(heard).resolves.toBe("begun");
    port1.close();
  });

  it("begins the job's time after its module is loaded and before its work", async () => {
    const events: string[] = [];
    let load!: (module: { double: (n: number) => number }) => void;
    const [, run] = implement(
      poolTask<number, number>("double"),
      () => new Promise<{ double: (n: number) => number }>((resolve) => (load = resolve)),
      (m, n) => (events.push("work"), m.double(n)),
    );
    const result = run(21, () => events.push("begin"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([]);
    events.push("loaded");
    load({ double: (n) => n * 2 });
    await expect(result).resolves.toBe(42);
    expect(events).toEqual(["loaded", "begin", "work"]);
  });
});
