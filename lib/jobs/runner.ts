import type { Task, TaskStore } from "./task-store.ts";

export type TaskContext = {
  signal: AbortSignal;
  progress(fraction: number): Promise<void>;
};
export type TaskWork = (task: Task, ctx: TaskContext) => Promise<unknown>;

/**
 * Runs tasks in this process with bounded parallelism: pending → running → completed | failed,
 * or cancelled through `cancel`, which aborts the work's signal.
 */
export class InProcessRunner {
  private readonly controllers = new Map<string, AbortController>();
  private readonly queue: Array<() => Promise<void>> = [];
  private active = 0;
  private readonly idle = new Set<() => void>();

  constructor(
    private readonly store: TaskStore,
    private readonly concurrency = 4,
    private readonly onError: (err: unknown, taskId: string) => void = () => {},
  ) {}

  enqueue(task: Task, work: TaskWork): void {
    const controller = new AbortController();
    this.controllers.set(task.id, controller);
    this.queue.push(() => this.run(task, work, controller));
    this.pump();
  }

  async cancel(taskId: string): Promise<Task | null> {
    this.controllers.get(taskId)?.abort();
    return this.store.update(taskId, { status: "cancelled" });
  }

  /** Resolves when no task is queued or running (graceful shutdown, tests). */
  drained(): Promise<void> {
    if (this.active === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  private pump(): void {
    while (this.active < this.concurrency && this.queue.length > 0) {
      const next = this.queue.shift()!;
      this.active += 1;
      void next().finally(() => {
        this.active -= 1;
        this.pump();
        if (this.active === 0 && this.queue.length === 0) {
          for (const done of this.idle) done();
          this.idle.clear();
        }
      });
    }
  }

  private async run(task: Task, work: TaskWork, controller: AbortController): Promise<void> {
    try {
      if (controller.signal.aborted) return;
      await this.store.update(task.id, { status: "running" });
      const result = await work(task, {
        signal: controller.signal,
        progress: async (fraction) => void (await this.store.update(task.id, { progress: fraction })),
      });
      if (!controller.signal.aborted) await this.store.update(task.id, { status: "completed", progress: 1, result });
    } catch (err) {
      if (!controller.signal.aborted) {
        this.onError(err, task.id);
        await this.store.update(task.id, { status: "failed", error: (err as Error).message ?? String(err) }).catch(() => {});
      }
    } finally {
      this.controllers.delete(task.id);
    }
  }
}
