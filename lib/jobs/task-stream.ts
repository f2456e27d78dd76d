import type { DurableTasks } from "./durable.ts";
import { FINAL_STATUSES, type Task, type TaskStore } from "./task-store.ts";

export type StreamOptions = {
  /** How often the database is read when no local wake-up comes (events of another instance's worker). */
  pollMs: number;
  /** A status message at least this often while nothing else is sent. */
  heartbeatMs: number;
  /** The stream ends with a timeout message after this long (SPEC: 600 s). */
  maxMs: number;
  signal: AbortSignal;
};

export type StreamMessage = Record<string, unknown> & { task_id: string; status: string; type: string };

// A budget's stop closes as an error (SPEC's closing types), its status saying which; it carries what was done.
const FINAL_TYPE: Record<string, string> = { completed: "complete", failed: "error", cancelled: "cancelled" };

/** The closing message for a task that ended: its result, its error (with what was done, past a budget), or "Cancelled". */
export function finalMessage(task: Task): StreamMessage {
  const base = { task_id: task.id, status: task.status, type: FINAL_TYPE[task.status] ?? "error" };
  if (task.status === "completed") return { ...base, result: task.result };
  if (task.status === "cancelled") return { ...base, error: "Cancelled" };
  if (task.status === "budget_exceeded")
    return { ...base, error: task.error ?? "budget exceeded", result: task.result };
  return { ...base, error: task.error ?? "failed" };
}

/**
 * A task's messages for its event stream, from any instance: every recorded event so far, then each new
 * one as it is recorded (at once when recorded in this process, within `pollMs` from another), a
 * status message at least every `heartbeatMs`, and one closing message: complete, error, cancelled or
 * timeout. Ends early, without a message, when `signal` aborts (the client went away).
 */
export async function* taskMessages(
  store: TaskStore,
  durable: Pick<DurableTasks, "watch">,
  first: Task,
  options: StreamOptions,
): AsyncGenerator<StreamMessage> {
  const started = Date.now();
  let after = 0n;
  let lastSent = 0;
  let task: Task = first;
  const drain = async function* () {
    for (;;) {
      const rows = await store.eventsAfter(task.id, after);
      for (const row of rows) {
        after = row.id;
        yield { ...row.data, task_id: task.id, status: task.status, type: String(row.data.type ?? "event") };
      }
      if (rows.length < 500) return;
    }
  };
  while (!options.signal.aborted) {
    for await (const message of drain()) {
      lastSent = Date.now();
      yield message;
    }
    task = (await store.get(task.id)) ?? task;
    if (FINAL_STATUSES.has(task.status)) {
      // Work awaits its events before its final status is written: a last read catches all of them.
      yield* drain();
      yield finalMessage(task);
      return;
    }
    const now = Date.now();
    if (now - started >= options.maxMs) {
      yield { task_id: task.id, status: task.status, type: "timeout" };
      return;
    }
    if (now - lastSent >= options.heartbeatMs) {
      lastSent = now;
      yield { task_id: task.id, status: task.status, type: "status", progress: task.progress };
    }
    await wake(durable, task.id, Math.min(options.pollMs, options.maxMs - (now - started)), options.signal);
  }
}

/** Resolves on the task's next local event, after `ms`, or when the client leaves, whichever is first. */
function wake(durable: Pick<DurableTasks, "watch">, taskId: string, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unwatch();
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    const unwatch = durable.watch(taskId, done);
    signal.addEventListener("abort", done, { once: true });
  });
}
