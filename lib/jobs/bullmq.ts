import { DelayedError, Queue, QueueEvents, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import { BudgetExceeded, endedBy } from "./budget-exceeded.ts";
import type { JobOwner, TaskContext } from "./runner.ts";
import {
  ActiveCap,
  isFinal,
  runDurable,
  TaskSignals,
  type DurableHandler,
  type DurableOptions,
  type DurableTasks,
  type SubmitOptions,
} from "./durable.ts";
import { cachedRead, outcomeOf, type QueueDepth, type TaskEnded } from "./task-metrics.ts";
import type { Task, TaskStore } from "./task-store.ts";

export type BullOptions = DurableOptions & {
  redisUrl: string;
  /** Queue name; its cancel messages go on `<queue>:cancel`. */
  queue: string;
  /** Whether this process works the queue (workers, and web instances unless JOB_WORKERS=separate). */
  work: boolean;
  concurrency: number;
  /** Tasks one key (its rotation lineage) may have running at once on all workers; its others wait. */
  runningPerKey: number;
  /**
   * How long a job's lock lasts without renewal, and how often stalled jobs are looked for: a worker
   * killed mid-task has its job found stalled within about twice this, then retried once on another
   * worker; a second stall fails it (BullMQ's maxStalledCount).
   */
  stalledMs: number;
  /** Each task whose work started in this process, as it ends (/metrics). */
  onEnded?: TaskEnded;
};

/**
 * `lineage`: the rotation lineage the task's running cap counts against (absent on jobs queued before it
 * was kept); `traceparent`: the submitting request's span, which the task's continues (tracing on).
 */
type JobData = { taskId: string; lineage?: string; traceparent?: string };

// A job whose key already has its share of the workers waits this long, behind other keys' jobs, and is tried again.
const DEFER_MS = 2_000;

// The queue's counts for /metrics: a scrape waits at most QUEUE_COUNT_WAIT_MS for Redis, scrapes within
// QUEUE_COUNT_CACHE_MS of a read share it, and counts older than QUEUE_COUNT_STALE_MS are not shown.
const QUEUE_COUNT_WAIT_MS = 500;
const QUEUE_COUNT_CACHE_MS = 5_000;
const QUEUE_COUNT_STALE_MS = 60_000;

/**
 * Durable tasks on BullMQ: submit writes the row and enqueues its id; any process that works the
 * queue runs it. Cancel is a row update plus a Redis message that aborts the work wherever it runs.
 * A job that fails outside our code (stalled twice: its worker died) is marked failed on the row
 * from the queue's event stream, so no task stays "running" forever.
 */
export class BullDurable implements DurableTasks {
  readonly mode = "bullmq";
  private readonly handlers = new Map<string, DurableHandler>();
  private readonly signals = new TaskSignals();
  private readonly cap: ActiveCap;
  private readonly queue: Queue<JobData>;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly running = new Map<string, AbortController>();
  private readonly cancelChannel: string;
  private worker?: Worker<JobData>;
  /** Whether the worker was told to read the queue (see `define`). */
  private working = false;
  private events?: QueueEvents;
  private readonly onError: (err: unknown, taskId: string) => void;
  private readonly counts: () => Promise<QueueDepth | undefined>;

  constructor(
    private readonly store: TaskStore,
    private readonly options: BullOptions,
  ) {
    this.cap = new ActiveCap(store, options.activePerKey);
    this.onError = options.onError ?? (() => {});
    const connection = () => new Redis(options.redisUrl, { maxRetriesPerRequest: null, connectionName: "gw-tasks" });
    this.cancelChannel = `${options.queue}:cancel`;
    this.queue = new Queue<JobData>(options.queue, { connection: connection() });
    this.counts = cachedRead(
      async () => {
        const n = await this.queue.getJobCounts("waiting", "prioritized", "delayed", "active");
        return { waiting: (n.waiting ?? 0) + (n.prioritized ?? 0), delayed: n.delayed ?? 0, active: n.active ?? 0 };
      },
      { timeoutMs: QUEUE_COUNT_WAIT_MS, maxAgeMs: QUEUE_COUNT_CACHE_MS, staleMs: QUEUE_COUNT_STALE_MS },
    );
    this.publisher = connection();
    this.subscriber = connection();
    // Without a listener ioredis prints every failed reconnect to stderr while Redis is away.
    this.publisher.on("error", (err) => this.onError(err, "(cancel channel)"));
    this.subscriber.on("error", (err) => this.onError(err, "(cancel channel)"));
    void this.subscriber.subscribe(this.cancelChannel);
    this.subscriber.on("message", (_channel, taskId: string) => {
      this.running.get(taskId)?.abort(new Error("Cancelled"));
      this.signals.notify(taskId);
    });
    if (options.work) this.startWorking(connection);
  }

  define(kind: string, handler: DurableHandler): void {
    this.handlers.set(kind, handler);
    // The queue is read from the turn after the first kind is defined: a process defines its kinds together,
    // in one synchronous pass at start-up (setUpAreas), after its runtime exists. A worker reading from its
    // construction took a task already waiting before its kind was defined, and failed it ("no handler").
    if (this.worker && !this.working) {
      this.working = true;
      const worker = this.worker;
      setImmediate(() => void worker.run().catch((err: unknown) => this.onError(err, "(worker)")));
    }
  }

  async submit(owner: JobOwner, kind: string, input: unknown, options: SubmitOptions): Promise<Task> {
    if (!this.handlers.has(kind)) throw new Error(`no handler for task kind '${kind}'`);
    return this.cap.reserve(owner.limitKey, options.capKinds, async () => {
      const task = await this.store.create(kind, owner.id, input, { idPrefix: options.idPrefix });
      await this.queue.add(
        kind,
        { taskId: task.id, lineage: owner.limitKey, traceparent: options.traceparent },
        { jobId: task.id, removeOnComplete: 1000, removeOnFail: 1000 },
      );
      return task;
    });
  }

  /** Its place in the queue's waiting list, next first; null while it waits out its key's running cap. */
  async queuePosition(taskId: string): Promise<number | null> {
    const index = (await this.queue.getRanges(["waiting"], 0, -1, true)).indexOf(taskId);
    return index < 0 ? null : index + 1;
  }

  /** The whole queue's tasks by state (every instance's), as last read from Redis: never waits long for it. */
  queueDepth(): Promise<QueueDepth | undefined> {
    return this.counts();
  }

  async cancel(taskId: string): Promise<Task | null> {
    const task = await this.store.update(taskId, { status: "cancelled" });
    if (!task) return null;
    await this.publisher.publish(this.cancelChannel, taskId);
    // A job still waiting is dropped; an active one is locked and ends when its work sees the abort.
    await this.queue.remove(taskId).catch(() => 0);
    this.signals.notify(taskId);
    return task;
  }

  watch(taskId: string, listener: () => void): () => void {
    return this.signals.watch(taskId, listener);
  }

  async close(): Promise<void> {
    // Jobs in flight finish (SIGTERM drains); a process killed instead leaves them to the stalled check.
    await this.worker?.close();
    await Promise.allSettled([this.events?.close(), this.queue.close()]);
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }

  private startWorking(connection: () => Redis): void {
    this.worker = new Worker<JobData>(this.options.queue, (job, token) => this.process(job, token), {
      // Started by `define`, once this process knows a kind of task.
      autorun: false,
      connection: connection(),
      concurrency: this.options.concurrency,
      lockDuration: this.options.stalledMs,
      stalledInterval: this.options.stalledMs,
      maxStalledCount: 1,
    });
    this.worker.on("error", (err) => this.onError(err, "(worker)"));
    this.worker.on("stalled", (taskId) => {
      void this.store
        .appendEvent(taskId, { type: "restarted", reason: "its worker stopped answering" })
        .catch(() => {});
    });
    this.events = new QueueEvents(this.options.queue, { connection: connection() });
    this.events.on("failed", ({ jobId, failedReason }) => {
      void this.store
        .update(jobId, { status: "failed", error: `the task's worker stopped: ${failedReason}` })
        .then(() => this.signals.notify(jobId))
        .catch((err: unknown) => this.onError(err, jobId));
    });
  }

  private async process(job: Job<JobData>, token: string | undefined): Promise<void> {
    const task = await this.store.get(job.data.taskId);
    if (!task || isFinal(task)) return;
    const handler = this.handlers.get(task.kind);
    if (!handler) throw new Error(`no handler for task kind '${task.kind}' in this process`);
    const controller = new AbortController();
    this.running.set(task.id, controller);
    try {
      const lineage = job.data.lineage ?? task.ownerKeyId ?? "";
      const kinds = [...this.handlers.keys()];
      const claim = await this.store.claimRunning(task.id, lineage, kinds, this.options.runningPerKey);
      if (claim === "ended") return;
      if (claim === "busy") {
        // Its key already has its share of the workers: the job goes back to wait, behind other keys' jobs.
        await job.moveToDelayed(Date.now() + DEFER_MS, token);
        throw new DelayedError();
      }
      // Cancelled while it was being marked running: its work never starts (see InProcessRunner.run).
      if (controller.signal.aborted) return;
      const ctx: TaskContext & { traceparent?: string } = {
        signal: controller.signal,
        progress: async (fraction) => void (await this.store.update(task.id, { progress: fraction })),
        traceparent: job.data.traceparent,
      };
      const started = performance.now();
      let failure: unknown;
      try {
        const result = await runDurable(
          this.store,
          this.signals,
          handler,
          task,
          ctx,
          this.options.timeoutMs,
          this.onError,
        );
        if (!controller.signal.aborted) await this.store.update(task.id, { status: "completed", progress: 1, result });
      } catch (err) {
        failure = err ?? new Error("task failed");
        if (!controller.signal.aborted) {
          if (!(err instanceof BudgetExceeded)) this.onError(err, task.id);
          await this.store.update(task.id, endedBy(err));
        }
      } finally {
        const seconds = (performance.now() - started) / 1000;
        this.options.onEnded?.(task.kind, outcomeOf(failure, controller.signal.aborted), seconds);
      }
    } finally {
      this.running.delete(task.id);
      this.signals.notify(task.id);
    }
  }
}
