// `npm run cluster`: N web processes sharing one port (Node's cluster module; N = CLUSTER_WEB_INSTANCES,
// default 2) and one research-queue worker, each the compiled entry `npm start` / `npm run worker` runs,
// on this machine. For tests and benchmarks of many instances, and for a host without an orchestrator.
// They share state only through PostgreSQL and Redis, as instances on separate machines would.
// SIGTERM or SIGINT here is passed to every child, each drains (requests, streams, usage, tasks in hand)
// and this process exits 0 once all have exited 0.
import cluster from "node:cluster";
import net from "node:net";
import { OUT_DIR } from "./build-server.mjs";
import { ensureBuilt } from "./ensure-built.mjs";

/** A child that exits sooner than this after it started is failing to start: restarting it would loop. */
const CRASH_LOOP_MS = 10_000;
const MAX_WEB_INSTANCES = 64;

const log = (level, msg, fields = {}) =>
  process.stdout.write(`${JSON.stringify({ level, time: Date.now(), pid: process.pid, ...fields, msg })}\n`);
const fail = (message) => {
  process.stderr.write(`cluster: ${message}\n`);
  process.exit(2);
};

const webCount = Number(process.env.CLUSTER_WEB_INSTANCES ?? 2);
if (!Number.isInteger(webCount) || webCount < 1 || webCount > MAX_WEB_INSTANCES)
  fail(`CLUSTER_WEB_INSTANCES must be a whole number from 1 to ${MAX_WEB_INSTANCES}`);
if (!process.env.DATABASE_URL || !process.env.REDIS_URL)
  fail(
    "needs DATABASE_URL (PostgreSQL) and REDIS_URL. The embedded database (PGlite) is one process per data " +
      "directory, and instances must share their limits and research queue through Redis; use npm start for one process.",
  );

process.env.NEXT_TELEMETRY_DISABLED ??= "1";
// The portal is built here, before forking, not in the background as `npm start` does: N web processes would
// each need to follow one build (or start N), and a cluster is for tests, benchmarks and hosts that can wait.
ensureBuilt({ portal: process.env.SERVE_PORTAL !== "false" });
process.env.NODE_ENV ??= "production";
// The port is chosen here when PORT=0 (tests), so this process knows which listening is the web servers'
// (each web process also listens on a loopback port of its own for the keys CLI).
const port = Number(process.env.PORT ?? 3000) || (await freePort(process.env.HOST ?? "127.0.0.1"));
process.env.PORT = String(port);
// The worker process below takes the research tasks, so web processes only enqueue them.
const webEnv = { ...process.env, JOB_WORKERS: process.env.JOB_WORKERS ?? "separate" };
// Stack traces in the logs name the TypeScript sources (dist/ carries source maps).
const execArgv = ["--enable-source-maps"];

/** Live children, web and worker, by cluster worker id. */
const children = new Map();
let stopping = false;
let exitCode = 0;
let announced = false;

/**
 * Forks an entry of dist/ as a cluster worker; the queue worker too, not only the web servers, because
 * a cluster worker exits when its primary is gone, where a plain child would be left running.
 */
function start(kind, entry, env) {
  cluster.setupPrimary({ exec: `${OUT_DIR}/${entry}.mjs`, execArgv, silent: false });
  const child = cluster.fork(env);
  const started = Date.now();
  children.set(child.id, child);
  child.once("exit", (code, signal) => {
    children.delete(child.id);
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (children.size === 0) process.exit(exitCode);
      return;
    }
    const ranMs = Date.now() - started;
    log(50, `${kind} process exited`, { child: child.process.pid, code, signal, ranMs });
    if (ranMs < CRASH_LOOP_MS) stop(`a ${kind} process failed within ${CRASH_LOOP_MS / 1000} s of starting`, 1);
    else start(kind, entry, env);
  });
}

function stop(reason, code = 0) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  log(30, "cluster stopping: every process drains", { reason });
  if (children.size === 0) process.exit(exitCode);
  for (const child of children.values()) child.process.kill("SIGTERM");
}

async function freePort(host) {
  const probe = net.createServer();
  await new Promise((resolve, reject) => probe.once("error", reject).listen(0, host, resolve));
  const { port: free } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return free;
}

const listening = new Set();
cluster.on("listening", (worker, address) => {
  if (address.port !== port) return;
  listening.add(worker.id);
  if (announced || listening.size < webCount) return;
  announced = true;
  const host = address.address?.includes(":") ? `[${address.address}]` : (address.address ?? "127.0.0.1");
  log(30, "cluster listening", { url: `http://${host}:${address.port}`, web: webCount, worker: 1 });
});

for (let i = 0; i < webCount; i++) start("web", "server", webEnv);
start("worker", "worker", process.env);
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
