import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createParser } from "eventsource-parser";
import { loadConfig } from "../../lib/config.ts";
import { openDatabase } from "../../lib/db/client.ts";
import { createKey } from "../../lib/gateway/keys/key-changes.ts";
import { databaseBackends, type DatabaseBackend } from "../support/backends.ts";
import { runKeysCli } from "../support/server-process.ts";

/** The pids of a process's children, from every thread's list (Linux). */
export function childrenOf(pid: number): string[] {
  return fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").split(" "))
    .filter(Boolean);
}

export function commandLine(pid: number): string[] {
  return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
}

/**
 * Reads a server-sent event stream: `firstEvent` once one arrived, `events` (parsed JSON data lines,
 * raw text for non-JSON ones such as `[DONE]`) when the stream ends; `events` rejects when it is cut.
 */
export function readStream(res: Response): {
  firstEvent: Promise<void>;
  events: Promise<Array<Record<string, unknown>>>;
} {
  let first!: () => void;
  const firstEvent = new Promise<void>((resolve) => (first = resolve));
  const events = (async () => {
    const seen: Array<Record<string, unknown>> = [];
    const parser = createParser({
      onEvent: (e) => {
        try {
          seen.push(JSON.parse(e.data) as Record<string, unknown>);
        } catch {
          seen.push({ raw: e.data });
        }
        first();
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
      parser.feed(decoder.decode(chunk, { stream: true }));
    first();
    return seen;
  })();
  return { firstEvent, events };
}

/** What a fault scenario prints: what clients saw and what was lost (the suite requires nothing). */
export function report(scenario: string, figures: Record<string, unknown>): void {
  const lines = Object.entries(figures).map(([k, v]) => `  ${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
  console.log(`[fault] ${scenario}\n${lines.join("\n")}`);
}

/** A free loopback port (for daemons that take a port number, not 0). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** How long each fault scenario's load runs: short in `npm test`, longer in `npm run test:faults`. */
export const LOAD_MS = Number(process.env.FAULTS_LOAD_MS) || 2_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether redis-server is installed (CI installs it with Redis; `.ci/run`). */
export const haveRedisServer = spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;

/** A private redis-server on loopback (no persistence), which a scenario kills and starts again. */
export async function startPrivateRedis(): Promise<{ url: string; kill(): Promise<void>; start(): Promise<void> }> {
  const port = await freePort();
  let proc: ChildProcess | undefined;
  const start = async () => {
    proc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    await until(() => canConnect(port), 10_000, `redis-server on ${port}`);
  };
  const kill = async () => {
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = once(proc, "exit");
    proc.kill("SIGKILL");
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, kill, start };
}

const PG_BIN = (() => {
  const root = "/usr/lib/postgresql";
  const version = fs.existsSync(root) ? fs.readdirSync(root).sort().at(-1) : undefined;
  return version ? path.join(root, version, "bin") : undefined;
})();

/** Whether this machine has PostgreSQL's server binaries, for a private cluster. */
export const havePostgresBinaries = PG_BIN !== undefined && fs.existsSync(path.join(PG_BIN, "pg_ctl"));

/**
 * A private PostgreSQL cluster under /tmp (initdb, trust on loopback) that a scenario stops and starts:
 * the shared test server is never touched. Run as the postgres user when the tests run as root.
 */
export async function startPrivatePostgres(): Promise<{
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gw-pg-"));
  const data = path.join(dir, "data");
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync("chown", ["-R", "postgres", dir]);
  const run = (bin: string, args: string[]) => {
    const file = path.join(PG_BIN!, bin);
    if (asRoot) execFileSync("runuser", ["-u", "postgres", "--", file, ...args], { stdio: "pipe", cwd: dir });
    else execFileSync(file, args, { stdio: "pipe", cwd: dir });
  };
  run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "start"]);
  // "immediate": what a crash or a killed container looks like to the gateway.
  const stop = () => run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: () => {
      try {
        stop();
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs} ms`);
    await sleep(50);
  }
}

export type LoadResult = {
  /** Answers by status, and "error: ..." for requests that got no answer. */
  seen: Record<string, number>;
  answered: number;
  /** The slowest answer, ms. */
  slowestMs: number;
};

/**
 * Keyed GETs at `concurrency` for `durationMs`, each bounded (a hang counts as an error); `at` runs
 * scripted faults at offsets into the run while the load goes on.
 */
export async function runLoad(options: {
  url: string;
  key: string;
  path?: string;
  durationMs: number;
  concurrency: number;
  at?: Array<[number, () => Promise<void> | void]>;
}): Promise<LoadResult> {
  const result: LoadResult = { seen: {}, answered: 0, slowestMs: 0 };
  const started = Date.now();
  const end = started + options.durationMs;
  const worker = async () => {
    while (Date.now() < end) {
      const t = Date.now();
      try {
        const res = await fetch(`${options.url}${options.path ?? "/v1/key"}`, {
          headers: { "X-API-Key": options.key },
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        result.seen[res.status] = (result.seen[res.status] ?? 0) + 1;
        result.answered += 1;
      } catch (err) {
        const label = `error: ${(err as Error).name}`;
        result.seen[label] = (result.seen[label] ?? 0) + 1;
      }
      result.slowestMs = Math.max(result.slowestMs, Date.now() - t);
    }
  };
  const faults = (async () => {
    for (const [offset, fault] of options.at ?? []) {
      await sleep(Math.max(0, started + offset - Date.now()));
      await fault();
    }
  })();
  await Promise.all([...Array.from({ length: options.concurrency }, worker), faults]);
  return result;
}

/**
 * The quicker database for a scenario about something else: PostgreSQL when the run has one (keys are
 * then made straight in it, with no CLI process), else PGlite.
 */
export const scenarioBackend: DatabaseBackend = databaseBackends.includes("postgres") ? "postgres" : "pglite";

/**
 * A key for the server running on `env`: made in PostgreSQL directly, or through the keys CLI (which
 * reaches the running server) on PGlite, whose directory the server holds.
 */
export async function makeKey(
  env: Record<string, string>,
  input: { name: string; day?: number; minute?: number; concurrency?: number },
): Promise<{ id: string; key: string }> {
  if (env.DATABASE_URL) {
    const db = await openDatabase(loadConfig(env));
    try {
      return await createKey(db, input, "test");
    } finally {
      await db.close();
    }
  }
  const args = ["create", "--name", input.name];
  if (input.day) args.push("--day", String(input.day));
  if (input.minute) args.push("--minute", String(input.minute));
  if (input.concurrency) args.push("--concurrency", String(input.concurrency));
  const made = await runKeysCli(args, env);
  if (made.code !== 0) throw new Error(`keys CLI failed: ${made.stderr}`);
  return made.lines[0] as { id: string; key: string };
}
