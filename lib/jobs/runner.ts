import { RateLimitError } from "../errors.ts";
import type { Task, TaskStore } from "./task-store.ts";

export type TaskContext = {
  signal: AbortSignal;
  progress(fraction: number): Promise<void>;
};
export type TaskWork = (task: Task, ctx: TaskContext) => Promise<unknown>;

export type RunnerOptions = {
  /** Tasks running at once in this process. */
  concurrency?: number;
  /** Tasks one key may have waiting (not yet running); past it submit answers 429. */
  queuedPerKey?: number;
  onError?: (err: unknown, taskId: string) => void;
};

/** Queued jobs start as others finish, whose length nobody knows: a fixed hint for when to try again. */
export const QUEUE_RETRY_AFTER_S = 10;

type Waiting = { taskId: string; start: () => Promise<void> };

/**
 * Runs tasks in this process with bounded parallelism: pending → running → completed | failed,
 * or cancelled through `cancel`, which aborts the work's signal. Waiting tasks are kept per owner
 * and started round-robin across owners, so one key's long queue never delays another key's first job.
 */
export class InProcessRunner {
  private readonly controllers = new Map<string, AbortController>();
  private readonly waiting = new Map<string, Waiting[]>();
  /** Owners with waiting tasks, in turn order: each start moves its owner to the back. */
  private readonly turns: string[] = [];
  /** Submissions past the quota check whose task row is still being written. */
  private readonly reserved = new Map<string, number>();
  private active = 0;
  private readonly idle = new Set<() => void>();
  private readonly concurrency: number;
  private readonly queuedPerKey: number;
  private readonly onError: (err: unknown, taskId: string) => void;

  constructor(
    private readonly store: TaskStore,
    options: RunnerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 4;
    this.queuedPerKey = options.queuedPerKey ?? 20;
    this.onError = options.onError ?? (() => {});
  }

  /** Tasks of this owner waiting to start (including ones being created). */
  queuedFor(ownerKeyId: string): number {
    return (this.waiting.get(ownerKeyId)?.length ?? 0) + (this.reserved.get(ownerKeyId) ?? 0);
  }

  /**
   * Creates a key's task and queues it, unless the key already has its quota of tasks waiting
   * (429 Form B, before any row is written). The quota is reserved synchronously, so parallel
   * submissions cannot all slip past it.
   */
  async submit(ownerKeyId: string, create: () => Promise<Task>, work: TaskWork): Promise<Task> {
    const queued = this.queuedFor(ownerKeyId);
    if (queued >= this.queuedPerKey) {
      throw new RateLimitError(
        `rate limit exceeded: this key already has ${queued} jobs waiting to start (at most ${this.queuedPerKey}); try again when some have started`,
        QUEUE_RETRY_AFTER_S,
        "jobs",
      );
    }
    this.reserved.set(ownerKeyId, (this.reserved.get(ownerKeyId) ?? 0) + 1);
    let task: Task;
    try {
      task = await create();
    } finally {
      const left = (this.reserved.get(ownerKeyId) ?? 1) - 1;
      if (left > 0) this.reserved.set(ownerKeyId, left);
      else this.reserved.delete(ownerKeyId);
    }
    this.enqueue(task, work);
    return task;
  }

  /** Queues a task already written; no quota (submit is the path for keys' requests). */
  enqueue(task: Task, work: TaskWork): void {
    const controller = new AbortController();
    this.controllers.set(task.id, controller);
    const owner = task.ownerKeyId ?? "";
    const queue = this.waiting.get(owner);
    const entry = { taskId: task.id, start: () => this.run(task, work, controller) };
    if (queue) queue.push(entry);
    else {
      this.waiting.set(owner, [entry]);
      this.turns.push(owner);
    }
    this.pump();
  }

  async cancel(taskId: string): Promise<Task | null> {
    this.controllers.get(taskId)?.abort();
    this.dropWaiting(taskId);
    return this.store.update(taskId, { status: "cancelled" });
  }

  /** Resolves when no task is queued or running (graceful shutdown, tests). */
  drained(): Promise<void> {
    if (this.active === 0 && this.turns.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  /** A cancelled task that never started leaves the queue at once, so it stops counting against the quota. */
  private dropWaiting(taskId: string): void {
    for (const [owner, queue] of this.waiting) {
      const i = queue.findIndex((w) => w.taskId === taskId);
      if (i < 0) continue;
      queue.splice(i, 1);
      this.controllers.delete(taskId);
      if (queue.length === 0) {
        this.waiting.delete(owner);
        this.turns.splice(this.turns.indexOf(owner), 1);
        this.settleIfIdle();
      }
      return;
    }
  }

  private pump(): void {
    while (this.active < this.concurrency && this.turns.length > 0) {
      const owner = this.turns.shift()!;
      const queue = this.waiting.get(owner)!;
      const next = queue.shift()!;
      if (queue.length > 0) this.turns.push(owner);
      else this.waiting.delete(owner);
      this.active += 1;
      void next.start().finally(() => {
        this.active -= 1;
        this.pump();
        this.settleIfIdle();
      });
    }
  }

  private settleIfIdle(): void {
    if (this.active !== 0 || this.turns.length !== 0) return;
    for (const done of this.idle) done();
    this.idle.clear();
  }

  private async run(task: Task, work: TaskWork, controller: AbortController): Promise<void> {
    try {
      if (controller.signal.aborted) return;
      await this.store.update(task.id, { status: "running" });
      // Cancelled while it was being marked running: its work never starts (work handed a signal already
      // aborted would wait for an abort event that has come and gone, holding a slot for good).
      if (controller.signal.aborted) return;
      const result = await work(task, {
        signal: controller.signal,
        progress: async (fraction) => void (await this.store.update(task.id, { progress: fraction })),
      });
      if (!controller.signal.aborted) await this.store.update(task.id, { status: "completed", progress: 1, result });
    } catch (err) {
      if (!controller.signal.aborted) {
        this.onError(err, task.id);
        await this.store
          .update(task.id, { status: "failed", error: (err as Error).message ?? String(err) })
          .catch(() => {});
      }
    } finally {
      this.controllers.delete(task.id);
    }
  }
}
