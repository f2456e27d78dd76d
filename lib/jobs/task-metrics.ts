import { Gauge, type Registry } from "prom-client";
import { BudgetExceeded } from "./budget-exceeded.ts";

/** How a task that started ended: its final status. */
export type TaskOutcome = "completed" | "failed" | "cancelled" | "budget_exceeded";

/** Told when a task whose work started has ended: its kind, how, and how long its work ran (s). */
export type TaskEnded = (kind: string, outcome: TaskOutcome, seconds: number) => void;

/** The final status of work that threw `err` (undefined: it returned), or was cancelled (`aborted`). */
export function outcomeOf(err: unknown, aborted: boolean): TaskOutcome {
  if (aborted) return "cancelled";
  if (err === undefined) return "completed";
  return err instanceof BudgetExceeded ? "budget_exceeded" : "failed";
}

/** Tasks a queue holds now, by state (waiting to start, running; BullMQ's deferred ones as delayed). */
export type QueueDepth = Partial<Record<"waiting" | "delayed" | "active", number>>;

export type CachedReadOptions = {
  /** A scrape waits this long for a fresh read, then answers with the last one. */
  timeoutMs: number;
  /** A value read this recently is answered without reading again. */
  maxAgeMs: number;
  /** A value older than this is not answered at all (the source has stopped answering). */
  staleMs: number;
  now?: () => number;
};

/**
 * A read of a remote count for /metrics that never holds a scrape: a value younger than `maxAgeMs` is
 * answered as it is; else a read starts (at most one at a time: a source that hangs gets no pile of
 * them) and the scrape waits `timeoutMs` for it, then answers with the last value read, unless that is
 * older than `staleMs`. Undefined until a read has succeeded; a failed read keeps the last value.
 */
export function cachedRead<T>(read: () => Promise<T>, options: CachedReadOptions): () => Promise<T | undefined> {
  const now = options.now ?? Date.now;
  let last: { value: T; at: number } | undefined;
  let reading: Promise<void> | undefined;
  return async () => {
    if (last && now() - last.at < options.maxAgeMs) return last.value;
    reading ??= read().then(
      (value) => {
        last = { value, at: now() };
        reading = undefined;
      },
      () => {
        reading = undefined;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([reading, new Promise((resolve) => (timer = setTimeout(resolve, options.timeoutMs)))]);
    clearTimeout(timer);
    return last && now() - last.at < options.staleMs ? last.value : undefined;
  };
}

/** What the queue gauge reads: the in-process runner's queue, and the durable tasks' shared one if any. */
export type TaskQueues = {
  runner: { depth(): QueueDepth };
  durable: { queueDepth(): Promise<QueueDepth | undefined> };
};

/**
 * gateway_task_queue_depth{queue,state}, read when /metrics is scraped: the in-process runner's tasks
 * (batches, videos, archive jobs, and research tasks without Redis), and BullMQ's research queue when
 * REDIS_URL is set (the whole queue, the same on every instance; its read is bounded by cachedRead).
 */
export function registerTaskQueueDepth(registry: Registry, queues: TaskQueues): void {
  new Gauge({
    name: "gateway_task_queue_depth",
    help: "Background tasks by queue (in-process: this instance's runner; bullmq: the research queue all instances share) and state (waiting, delayed: deferred behind their key's running cap, active)",
    labelNames: ["queue", "state"],
    registers: [registry],
    async collect() {
      this.reset();
      const set = (queue: string, depth: QueueDepth | undefined) => {
        for (const [state, n] of Object.entries(depth ?? {})) this.set({ queue, state }, n);
      };
      set("in-process", queues.runner.depth());
      set("bullmq", await queues.durable.queueDepth());
    },
  });
}
