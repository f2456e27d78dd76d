import { RateLimitError } from "../errors.ts";
import { BudgetExceeded, endedBy } from "./budget-exceeded.ts";
import { outcomeOf, type QueueDepth, type TaskEnded } from "./task-metrics.ts";
import type { Task, TaskStore } from "./task-store.ts";

export type TaskContext = {
  signal: AbortSignal;
  progress(fraction: number): Promise<void>;
};
export type TaskWork = (task: Task, ctx: TaskContext) => Promise<unknown>;

/**
 * Who submits a job: the key that owns its task, and the rotation lineage its quotas count against
 * (KeyRecord.limitKey), so a key and its replacements share one queue, one running cap and one quota.
 */
export type JobOwner = { id: string; limitKey: string };

export type RunnerOptions = {
  /** Tasks running at once in this process. */
  concurrency?: number;
  /** Tasks one key may have waiting (not yet running); past it submit answers 429. */
  queuedPerKey?: number;
  /** Tasks one key may have running at once: the rest wait, so one key never holds every slot. */
  runningPerKey?: number;
  onError?: (err: unknown, taskId: string) => void;
  /** Each task whose work started, as it ends (/metrics). */
  onEnded?: TaskEnded;
};

/** Queued jobs start as others finish, whose length nobody knows: a fixed hint for when to try again. */
export const QUEUE_RETRY_AFTER_S = 10;

type Waiting = { taskId: string; start: () => Promise<void> };

/**
 * A waiting task's place in round-robin order (1 = next to start): each round starts one task of every
 * owner with any waiting, in turn order. `lengths` are the owners' waiting counts in turn order; the task
 * is at `index` in the queue of the owner at `turn`.
 */
export function roundRobinPosition(lengths: readonly number[], turn: number, index: number): number {
  let ahead = index;
  for (let t = 0; t < lengths.length; t++) if (t !== turn) ahead += Math.min(lengths[t]!, index + (t < turn ? 1 : 0));
  return ahead + 1;
}

/**
 * Runs tasks in this process with bounded parallelism: pending → running → completed | failed,
 * or cancelled through `cancel`, which aborts the work's signal. Waiting tasks are kept per owner
 * (a key's rotation lineage) and started round-robin across owners, so one key's long queue never
 * delays another key's first job; an owner with `runningPerKey` tasks running is passed over until one
 * ends, so one key cannot hold every slot for a task's whole run.
 */
export class InProcessRunner {
  private readonly controllers = new Map<string, AbortController>();
  private readonly waiting = new Map<string, Waiting[]>();
  /** Owners with waiting tasks, in turn order: each start moves its owner to the back. */
  private readonly turns: string[] = [];
  /** Submissions past the quota check whose task row is still being written. */
  private readonly reserved = new Map<string, number>();
  /** Tasks running per owner. */
  private readonly running = new Map<string, number>();
  private active = 0;
  private readonly idle = new Set<() => void>();
  private readonly concurrency: number;
  private readonly queuedPerKey: number;
  private readonly runningPerKey: number;
  private readonly onError: (err: unknown, taskId: string) => void;
  private readonly onEnded: TaskEnded | undefined;

  constructor(
    private readonly store: TaskStore,
    options: RunnerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 4;
    this.queuedPerKey = options.queuedPerKey ?? 20;
    this.runningPerKey = options.runningPerKey ?? 2;
    this.onError = options.onError ?? (() => {});
    this.onEnded = options.onEnded;
  }

  /** Tasks waiting to start here and running here now. */
  depth(): QueueDepth {
    let waiting = 0;
    for (const queue of this.waiting.values()) waiting += queue.length;
    return { waiting, active: this.active };
  }

  /** Tasks of this lineage waiting to start (including ones being created). */
  queuedFor(lineage: string): number {
    return (this.waiting.get(lineage)?.length ?? 0) + (this.reserved.get(lineage) ?? 0);
  }

  /** A task waiting here: its place in the order tasks start (1 = next); null when it is not waiting here. */
  queuePosition(taskId: string): number | null {
    for (const [turn, owner] of this.turns.entries()) {
      const index = this.waiting.get(owner)!.findIndex((w) => w.taskId === taskId);
      if (index >= 0)
        return roundRobinPosition(
          this.turns.map((o) => this.waiting.get(o)!.length),
          turn,
          index,
        );
    }
    return null;
  }

  /**
   * Creates a key's task and queues it, unless the key's lineage already has its quota of tasks waiting
   * (429 Form B, before any row is written). The quota is reserved synchronously, so parallel
   * submissions cannot all slip past it.
   */
  async submit(owner: JobOwner, create: () => Promise<Task>, work: TaskWork): Promise<Task> {
    const lineage = owner.limitKey;
    const queued = this.queuedFor(lineage);
    if (queued >= this.queuedPerKey) {
      throw new RateLimitError(
        `rate limit exceeded: this key already has ${queued} jobs waiting to start (at most ${this.queuedPerKey}); try again when some have started`,
        QUEUE_RETRY_AFTER_S,
        "jobs",
      );
    }
    this.reserved.set(lineage, (this.reserved.get(lineage) ?? 0) + 1);
    let task: Task;
    try {
      task = await create();
    } finally {
      const left = (this.reserved.get(lineage) ?? 1) - 1;
      if (left > 0) this.reserved.set(lineage, left);
      else this.reserved.delete(lineage);
    }
    this.enqueue(task, work, lineage);
    return task;
  }

  /**
   * Queues a task already written, under its lineage (by default its key's own); no quota (submit is the
   * path for keys' requests).
   */
  enqueue(task: Task, work: TaskWork, owner = task.ownerKeyId ?? ""): void {
    const controller = new AbortController();
    this.controllers.set(task.id, controller);
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
    while (this.active < this.concurrency) {
      // The first owner in turn order below its running cap; one at the cap keeps its place for later.
      const turn = this.turns.findIndex((o) => (this.running.get(o) ?? 0) < this.runningPerKey);
      if (turn < 0) return;
      const [owner] = this.turns.splice(turn, 1) as [string];
      const queue = this.waiting.get(owner)!;
      const next = queue.shift()!;
      if (queue.length > 0) this.turns.push(owner);
      else this.waiting.delete(owner);
      this.active += 1;
      this.running.set(owner, (this.running.get(owner) ?? 0) + 1);
      void next.start().finally(() => {
        this.active -= 1;
        const left = this.running.get(owner)! - 1;
        if (left > 0) this.running.set(owner, left);
        else this.running.delete(owner);
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
    let started: number | undefined;
    let failure: unknown;
    try {
      if (controller.signal.aborted) return;
      await this.store.update(task.id, { status: "running" });
      // Cancelled while it was being marked running: its work never starts (work handed a signal already
      // aborted would wait for an abort event that has come and gone, holding a slot for good).
      if (controller.signal.aborted) return;
      started = performance.now();
      const result = await work(task, {
        signal: controller.signal,
        progress: async (fraction) => void (await this.store.update(task.id, { progress: fraction })),
      });
      if (!controller.signal.aborted) await this.store.update(task.id, { status: "completed", progress: 1, result });
    } catch (err) {
      failure = err ?? new Error("task failed");
      if (!controller.signal.aborted) {
        if (!(err instanceof BudgetExceeded)) this.onError(err, task.id);
        await this.store.update(task.id, endedBy(err)).catch(() => {});
      }
    } finally {
      this.controllers.delete(task.id);
      if (started !== undefined)
        this.onEnded?.(task.kind, outcomeOf(failure, controller.signal.aborted), (performance.now() - started) / 1000);
    }
  }
}
