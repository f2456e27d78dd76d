import { setUpAreas } from "./lib/app.ts";
import { loadConfig } from "./lib/config.ts";
import { createLogger } from "./lib/gateway/runtime/logger.ts";
import { createRuntime } from "./lib/gateway/runtime/runtime.ts";
import { deferWasmOptimisation } from "./lib/gateway/runtime/wasm-memory.ts";

/**
 * `npm run worker`: a process that only works the research queue (BullMQ on REDIS_URL), beside web
 * instances started with JOB_WORKERS=separate. Run as many as the work needs, on the same PostgreSQL
 * and Redis. SIGTERM lets the tasks in hand finish (up to WORKER_DRAIN_MS); a worker killed instead
 * leaves its tasks to the stalled check, which retries each once on another worker, then fails it.
 */
deferWasmOptimisation();
const config = await Promise.resolve()
  .then(() => loadConfig())
  .catch((err: unknown) => {
    process.stderr.write(`worker: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
if (!config.redisUrl) {
  process.stderr.write(
    "worker: REDIS_URL is not set. Without Redis, research tasks run inside the web process (npm start); a separate worker has nothing to take.\n",
  );
  process.exit(1);
}
const logger = createLogger(config.logLevel);
const rt = await createRuntime(config, logger, { worker: true });
setUpAreas(rt);
logger.info({ database: rt.db.kind, concurrency: config.jobs.concurrency }, "worker taking research tasks");

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "worker stopping: finishing the tasks in hand");
  setTimeout(() => {
    logger.error("tasks did not finish in time; exiting (they will be found stalled and retried)");
    process.exit(1);
  }, config.jobs.drainMs).unref();
  await rt.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
