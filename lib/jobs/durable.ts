import { EventEmitter } from "node:events";
import { RateLimitError } from "../errors.ts";
import { CallStop } from "../upstream/call-stop.ts";
import { QUEUE_RETRY_AFTER_S, type InProcessRunner, type JobOwner, type TaskContext } from "./runner.ts";
import type { QueueDepth } from "./task-metrics.ts";
import { FINAL_STATUSES, type Task, type TaskStore } from "./task-store.ts";

/** What a durable task's work gets beyond the signal and progress: events for its stream, and its spend. */
export type DurableContext = TaskContext & {
  /** Records a progress event (agent started, finished...); never throws, never blocks the work. */
  emit(event: Record<string, unknown>): void;
  /** Records what the task has spent so far (tokens, estimated cost), kept on the task row. */
  spent(usage: unknown): void;
  /** The W3C traceparent of the request that submitted the task, when it was traced: the task's span continues it. */
  traceparent?: string;
};
export type DurableHandler = (task: Task, ctx: DurableContext) => Promise<unknown>;

export type SubmitOptions = {
  /** Task ids look like `<idPrefix>_<12 hex>`. */
  idPrefix: string;
  /** The kinds that share the per-key cap of tasks pending or running. */
  capKinds: readonly string[];
  /** The submitting request's traceparent (tracing on), kept with the job for the process that runs it. */
  traceparent?: string;
};

export type DurableOptions = {
  /** Tasks one key may have pending or running at once, on all instances; past it submit answers 429. */
  activePerKey: number;
  /** A task still running after this long fails ("timed out") and its work is aborted. */
  timeoutMs: number;
  onError?: (err: unknown, taskId: string) => void;
};

/**
 * Tasks whose work is named by kind, so any process that registered the kind can run it: in this process
 * by default, on BullMQ workers when Redis is configured (bullmq.ts). The task row is the truth; events
 * are rows too, so status and stream read the same on every instance.
 */
export interface DurableTasks {
  readonly mode: "in-process" | "bullmq";
  define(kind: string, handler: DurableHandler): void;
  submit(owner: JobOwner, kind: string, input: unknown, options: SubmitOptions): Promise<Task>;
  /** Marks the task cancelled and aborts its work wherever it runs; null when it had already ended. */
  cancel(taskId: string): Promise<Task | null>;
  /** A pending task's place in the queue (1 = next to start), or null when this process cannot tell. */
  queuePosition(taskId: string): Promise<number | null>;
  /** The shared queue's tasks by state, for /metrics; undefined where the tasks are the in-process runner's. */
  queueDepth(): Promise<QueueDepth | undefined>;
  /** Called when a task of this process gets an event or ends, so a stream here need not wait for its next poll. */
  watch(taskId: string, listener: () => void): () => void;
  close(): Promise<void>;
}

/**
 * The per-key cap, counted by rotation lineage in the database (every instance's tasks of every key of
 * the lineage) plus submissions still being written here.
 */
export class ActiveCap {
  private readonly reserved = new Map<string, number>();
  constructor(
    private readonly store: TaskStore,
    private readonly limit: number,
  ) {}

  async reserve<T>(lineage: string, kinds: readonly string[], create: () => Promise<T>): Promise<T> {
    const mine = this.reserved.get(lineage) ?? 0;
    this.reserved.set(lineage, mine + 1);
    try {
      const active = (await this.store.countActive(lineage, kinds)) + mine;
      if (active >= this.limit) {
        throw new RateLimitError(
          `rate limit exceeded: this key already has ${active} research tasks pending or running (at most ${this.limit}); try again when one has finished, or cancel one`,
          QUEUE_RETRY_AFTER_S,
          "tasks",
        );
      }
      return await create();
    } finally {
      const left = (this.reserved.get(lineage) ?? 1) - 1;
      if (left > 0) this.reserved.set(lineage, left);
      else this.reserved.delete(lineage);
    }
  }
}

/** Local wake-ups for streams: one emitter, keyed by task id. */
export class TaskSignals {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  notify(taskId: string): void {
    this.emitter.emit(taskId);
  }
  watch(taskId: string, listener: () => void): () => void {
    this.emitter.on(taskId, listener);
    return () => void this.emitter.off(taskId, listener);
  }
}

/**
 * Runs one task's work with its events and spend recorded and a deadline: the events are appended in
 * order (one chain per task) and awaited before the task is marked finished, so a stream that sees
 * the final status has seen every event. Throws what the work throws (the caller marks the row).
 */
export async function runDurable(
  store: TaskStore,
  signals: TaskSignals,
  handler: DurableHandler,
  task: Task,
  ctx: TaskContext & Pick<DurableContext, "traceparent">,
  timeoutMs: number,
  onError: (err: unknown, taskId: string) => void,
): Promise<unknown> {
  let appends = Promise.resolve();
  const record = (write: () => Promise<unknown>) => {
    appends = appends.then(write).then(
      () => signals.notify(task.id),
      (err: unknown) => onError(err, task.id),
    );
  };
  const stop = new CallStop(timeoutMs, () => new Error(`timed out after ${Math.round(timeoutMs / 1000)} s`)).follow(
    ctx.signal,
  );
  try {
    const work = handler(task, {
      signal: stop.signal,
      progress: ctx.progress,
      emit: (event) => record(() => store.appendEvent(task.id, event)),
      spent: (usage) => record(() => store.update(task.id, { usage })),
      traceparent: ctx.traceparent,
    });
    // The deadline wins even over work that ignores its signal.
    const timedOut = new Promise<never>((_, reject) =>
      stop.once("abort", () => {
        if (stop.timedOut) reject(stop.reason as Error);
      }),
    );
    return await Promise.race([work, timedOut]);
  } finally {
    stop.release();
    await appends;
  }
}

/** Durable tasks in this process: the in-process runner's queue (fair across keys), work named by kind. */
export class InProcessDurable implements DurableTasks {
  readonly mode = "in-process";
  private readonly handlers = new Map<string, DurableHandler>();
  private readonly signals = new TaskSignals();
  private readonly cap: ActiveCap;
  private readonly onError: (err: unknown, taskId: string) => void;

  constructor(
    private readonly store: TaskStore,
    private readonly runner: InProcessRunner,
    private readonly options: DurableOptions,
  ) {
    this.cap = new ActiveCap(store, options.activePerKey);
    this.onError = options.onError ?? (() => {});
  }

  define(kind: string, handler: DurableHandler): void {
    this.handlers.set(kind, handler);
  }

  async submit(owner: JobOwner, kind: string, input: unknown, options: SubmitOptions): Promise<Task> {
    const handler = this.handlers.get(kind);
    if (!handler) throw new Error(`no handler for task kind '${kind}'`);
    return this.cap.reserve(owner.limitKey, options.capKinds, () =>
      this.runner.submit(
        owner,
        () => this.store.create(kind, owner.id, input, { idPrefix: options.idPrefix }),
        async (task, ctx) => {
          try {
            const traced = { ...ctx, traceparent: options.traceparent };
            return await runDurable(
              this.store,
              this.signals,
              handler,
              task,
              traced,
              this.options.timeoutMs,
              this.onError,
            );
          } finally {
            // The runner writes the final status right after; streams poll it within a second anyway.
            setImmediate(() => this.signals.notify(task.id));
          }
        },
      ),
    );
  }

  async cancel(taskId: string): Promise<Task | null> {
    const task = await this.runner.cancel(taskId);
    this.signals.notify(taskId);
    return task;
  }

  async queuePosition(taskId: string): Promise<number | null> {
    return this.runner.queuePosition(taskId);
  }

  /** The runner's depth says it: its queue is these tasks' queue. */
  async queueDepth(): Promise<undefined> {
    return undefined;
  }

  watch(taskId: string, listener: () => void): () => void {
    return this.signals.watch(taskId, listener);
  }

  async close(): Promise<void> {}
}

export const isFinal = (task: Pick<Task, "status">) => FINAL_STATUSES.has(task.status);
