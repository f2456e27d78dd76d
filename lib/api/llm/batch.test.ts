import { describe, expect, it } from "vitest";
import type { Task } from "../../jobs/task-store.ts";
import { batchQuotaError, describeBatch } from "./batch.ts";

describe("batchQuotaError", () => {
  const noon = Date.UTC(2026, 10, 26, 12, 0, 0);
  it("allows a batch that fits in what is left today, to the last item", () => {
    expect(batchQuotaError(0, 100, 100, noon)).toBeNull();
    expect(batchQuotaError(60, 40, 100, noon)).toBeNull();
  });

  it("refuses one that does not, saying what is left and pointing Retry-After at midnight UTC", () => {
    const err = batchQuotaError(60, 41, 100, noon)!;
    expect(err).toMatchObject({ status: 429, retryAfter: 12 * 3600, window: "batch_items" });
    expect(err.message).toMatch(/100 items per key per UTC day; 40 left today and this batch has 41/);
    expect(batchQuotaError(150, 1, 100, noon)!.message).toMatch(/0 left today/);
  });
});

describe("describeBatch", () => {
  const task = (status: Task["status"], results: unknown[]): Task => ({
    id: "task_1",
    kind: "llm.batch",
    ownerKeyId: "k",
    status,
    progress: 0.5,
    input: { requests: [{ custom_id: "a" }, { custom_id: "b" }, { custom_id: "c" }], max_tokens: 10 },
    result: { results },
    error: null,
    usage: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    completedAt: null,
  });
  const done = [{ custom_id: "a", status: "succeeded" }];

  it("counts the items without a result as processing while the batch runs", () => {
    expect(describeBatch(task("running", done))).toMatchObject({
      status: "in_progress",
      request_counts: { total: 3, succeeded: 1, errored: 0, processing: 2, not_run: 0 },
    });
  });

  it("counts them as not run once a budget stopped it", () => {
    expect(describeBatch(task("budget_exceeded", done))).toMatchObject({
      status: "budget_exceeded",
      request_counts: { total: 3, succeeded: 1, errored: 0, processing: 0, not_run: 2 },
    });
  });
});
