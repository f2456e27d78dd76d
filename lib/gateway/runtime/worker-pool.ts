import path from "node:path";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { GatewayError } from "../../errors.ts";
import { perRuntime } from "./per-runtime.ts";
import type { Runtime } from "./runtime.ts";
import { ErrorSchema, jsonResponse } from "../http/schemas.ts";

/** A Buffer comes back from a worker as a plain Uint8Array (structured clone keeps no subclass). */
type Cloned<T> = T extends Buffer ? Uint8Array : T;

/**
 * A job the pool can run, by name, typed by its arguments and result. The area that owns the work
 * declares it; lib/workers/heavy-tasks.ts implements it for the worker threads.
 */
export type PoolTask<Args, Result> = { readonly name: string; readonly types?: (args: Args) => Result };
export const poolTask = <Args, Result>(name: string): PoolTask<Args, Result> => ({ name });

/** What a job sends back: its value, or the user's error (a class does not survive the thread boundary). */
export type PoolOutcome = { ok: true; value: unknown } | { ok: false; status: number; message: string };

/**
 * Where a thread starts, resolved from the project root as the CSL styles are, so Next's bundling of the
 * gateway leaves it alone. The compiled server (scripts/build-server.mjs defines COMPILED_HEAVY_TASKS as
 * "dist/heavy-tasks.mjs") runs the compiled tasks directly, with no transpiler in the thread. Under tsx,
 * vitest and Next it is undefined, and heavy-worker.mjs registers tsx and loads the TypeScript tasks.
 */
declare const COMPILED_HEAVY_TASKS: string | undefined;
const WORKER_ENTRY =
  typeof COMPILED_HEAVY_TASKS === "string"
    ? { filename: path.join(/*turbopackIgnore: true*/ process.cwd(), COMPILED_HEAVY_TASKS), name: "runHeavyTask" }
    : { filename: path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "workers", "heavy-worker.mjs") };

/** What a route running on the pool may answer besides its own errors, for its OpenAPI responses. */
export const poolErrors = {
  413: jsonResponse(ErrorSchema, "Input or output too large, or the job needed more memory than a job may use"),
  422: jsonResponse(ErrorSchema, "The job ran longer than a job may run"),
  503: jsonResponse(ErrorSchema, "Too many heavy jobs queued, or none could start in time; try again shortly"),
};

/** A job with no work, sent only to make the pool start a thread for the jobs queued (see wakeQueue). */
export const emptyJob = poolTask<Record<string, never>, null>("empty");

/**
 * piscina ends the thread of a job stopped while running and, keeping no minimum of threads, starts
 * none for the jobs queued behind it until another job is sent: they would wait out WORKER_WAIT_MS and
 * be refused with 503. Sending an empty job then makes it start one.
 */
function wakeQueue(pool: Piscina): void {
  if (pool.queueSize > 0) pool.run({ task: emptyJob.name, args: {} }).catch(() => undefined);
}

/** The runtime's pool: created on first use (most processes never render a PDF), closed with the runtime. */
const poolOf = perRuntime((rt) => {
  const { threads, queue, memoryMb } = rt.config.workers;
  const pool = new Piscina({
    ...WORKER_ENTRY,
    minThreads: 0,
    maxThreads: threads,
    maxQueue: queue,
    idleTimeout: 60_000,
    // heavy-worker.mjs registers tsx itself; the parent's flags (tsx's or vitest's) are not for a thread.
    execArgv: [],
    resourceLimits: {
      maxOldGenerationSizeMb: memoryMb,
      maxYoungGenerationSizeMb: Math.min(64, memoryMb),
      stackSizeMb: 4,
    },
  });
  rt.onClose(() => pool.close({ force: true }));
  return pool;
});

/**
 * The byte arrays among a job's arguments that own their whole memory, moved to the worker instead of
 * copied (a 3 MB image costs a copy per hop). Slices of Node's shared pool are copied: moving one would
 * take the pool with it. The caller must not use a moved array afterwards.
 */
function ownedBuffers(args: object): ArrayBuffer[] {
  return Object.values(args)
    .filter(
      (v): v is Uint8Array => v instanceof Uint8Array && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength,
    )
    .map((v) => v.buffer)
    .filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
}

/**
 * A job's two clocks, its signal aborted when either runs out: the job may wait `waitMs` for its work
 * to begin (the queue, a thread's start, its module's import: the server's cost), then run `timeoutMs`
 * from when it begins. `running` tells which ran out.
 */
export class JobClock {
  readonly #stop = new AbortController();
  readonly #timeoutMs: number;
  #running = false;
  #timer: NodeJS.Timeout;

  constructor(waitMs: number, timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    this.#timer = setTimeout(() => this.#stop.abort(), waitMs);
  }

  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  get running(): boolean {
    return this.#running;
  }

  /** The work begins: the wait's clock stops and the job's starts (once; never after the wait ran out). */
  begin = (): void => {
    if (this.#running || this.#stop.signal.aborted) return;
    this.#running = true;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#stop.abort(), this.#timeoutMs);
  };

  clear(): void {
    clearTimeout(this.#timer);
  }
}

/**
 * Runs one CPU-heavy job on the worker pool, so the event loop keeps answering everyone else. A job
 * that outgrows its memory (413) or its time (422) ends its own worker and request, never the process;
 * a full queue is a 503. `what` names the input in those messages ("image", "pdf").
 */
export async function runOnPool<Args extends object, Result>(
  rt: Runtime,
  task: PoolTask<Args, Result>,
  args: Args,
  what: string,
): Promise<Cloned<Result>> {
  const { timeoutMs, waitMs, memoryMb } = rt.config.workers;
  const clock = new JobClock(waitMs, timeoutMs);
  // The worker says when the job's work begins (heavy-tasks.ts), once its module is loaded.
  const { port1: begun, port2: begunInWorker } = new MessageChannel();
  begun.once("message", clock.begin);
  const pool = poolOf(rt);
  let outcome: PoolOutcome;
  try {
    outcome = await pool.run(
      { task: task.name, args, started: begunInWorker },
      { signal: clock.signal, transferList: [begunInWorker, ...ownedBuffers(args)] },
    );
  } catch (err) {
    const { name, message, code } = err as Error & { code?: string };
    if (name === "AbortError" && clock.running) {
      wakeQueue(pool);
      throw new GatewayError(
        422,
        `${what} took longer than the ${timeoutMs / 1000} s a job may run, so it was stopped`,
      );
    }
    if (name === "AbortError")
      throw new GatewayError(
        503,
        `the server could not start this job within ${waitMs / 1000} s, being busy with other heavy jobs: try again shortly`,
        { "Retry-After": "1" },
      );
    if (code === "ERR_WORKER_OUT_OF_MEMORY")
      throw new GatewayError(413, `${what} needs more than the ${memoryMb} MB of memory a job may use`);
    if (message === "Task queue is at limit")
      throw new GatewayError(503, "the server is busy with other heavy jobs: try again shortly", {
        "Retry-After": "1",
      });
    throw err;
  } finally {
    clock.clear();
    begun.close();
  }
  if (!outcome.ok) throw new GatewayError(outcome.status as 400, outcome.message);
  return outcome.value as Cloned<Result>;
}
