import type { Logger } from "pino";
import { MemoryUpstreamCache, RedisUpstreamCache, type UpstreamCache } from "../../upstream/cache.ts";
import type { Resolver } from "../../upstream/safe-fetch.ts";
import { loadConfig, type Config } from "../../config.ts";
import { openDatabase, type Database } from "../../db/client.ts";
import { applyMigrations } from "../../db/migrate.ts";
import { InProcessDurable, type DurableTasks } from "../../jobs/durable.ts";
import { InProcessRunner } from "../../jobs/runner.ts";
import { registerTaskQueueDepth, type TaskEnded } from "../../jobs/task-metrics.ts";
import { TaskStore } from "../../jobs/task-store.ts";
import { localKeyEvents, redisKeyEvents, type KeyEvents } from "../keys/events.ts";
import { KeyStore } from "../keys/store.ts";
import { LevelDirectory } from "../teams/level-directory.ts";
import { Limiter } from "./limits/limiter.ts";
import { MemoryLimitStore } from "./limits/memory-store.ts";
import { FallbackLimitStore } from "./limits/fallback-store.ts";
import { throttled } from "./limits/throttled.ts";
import type { LimitStore } from "./limits/windows.ts";
import { createLogger } from "./logger.ts";
import { Meter } from "../../usage/meter.ts";
import { BudgetTracker } from "../../usage/budgets.ts";
import { budgetAlertDelivery } from "../../usage/budget-alerts.ts";
import { RequestLogRetention } from "../../usage/retention.ts";
import { createMetrics, type GatewayMetrics } from "./metrics.ts";
import { SessionBridge } from "../keys/session-bridge.ts";
import { Tracing } from "../../observability/tracing.ts";

/** Everything one gateway process holds: one database handle, the key cache, limits, meter, jobs. */
export type Runtime = {
  config: Config;
  logger: Logger;
  db: Database;
  keys: KeyStore;
  /** Teams, organisations and the limits above keys (lib/gateway/teams). */
  levels: LevelDirectory;
  keyEvents: KeyEvents;
  /** Portal sessions on /v1 (the consoles), resolved to each user's console key. */
  sessions: SessionBridge;
  limiter: Limiter;
  meter: Meter;
  /** Per-key monthly budgets in memory: the guard's hard stop, alerts at 80 % and 100 %. */
  budgets: BudgetTracker;
  /** Deletes per-request usage rows past REQUEST_LOG_RETENTION_DAYS, on a timer. */
  retention: RequestLogRetention;
  tasks: TaskStore;
  runner: InProcessRunner;
  /** Research tasks: work named by kind, run here or on BullMQ workers (REDIS_URL), state in the database. */
  durable: DurableTasks;
  metrics: GatewayMetrics;
  /** OpenTelemetry traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set; absent, nothing is traced and nothing checks more than this. */
  tracing?: Tracing;
  limitBackend: "memory" | "redis" | "upstash";
  /** Cache for third-party answers: Redis when REDIS_URL is set (shared by instances), else memory. */
  upstreamCache: UpstreamCache;
  /** How outbound requests for users resolve names (replaceable in tests to stage DNS tricks). */
  resolveHost?: Resolver;
  /** Resources areas open lazily (a browser, say), released when the runtime closes. */
  onClose(dispose: () => Promise<void>): void;
  close(): Promise<void>;
};

// On close, a database that does not answer is retried this long for the buffered usage events
// (server.ts exits 1 if the whole shutdown outlasts its own bound).
const METER_STOP_RETRY_MS = 8_000;

// A signed-out session keeps working on other instances for at most this long.
const SESSION_CACHE_MS = 10_000;

export type RuntimeOptions = {
  /** `npm run worker`: work the research queue whatever JOB_WORKERS says. */
  worker?: boolean;
};

export async function createRuntime(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const db = await openDatabase({
    ...config,
    onConnectionError: (err) => logger.warn({ err }, "an idle database connection failed; the pool replaces it"),
  });
  try {
    const applied = await applyMigrations(db);
    if (applied.length) logger.info({ applied, database: db.kind }, "database migrated");
  } catch (err) {
    await db.close();
    throw err;
  }
  const logError = (msg: string) => (err: unknown) => logger.error({ err }, msg);

  const keys = new KeyStore(db, {
    refreshMs: config.keyRefreshMs,
    policy: { limits: config.limits, console: config.console },
    onError: logError("key refresh failed"),
  });
  keys.start();
  const levels = new LevelDirectory(db, { refreshMs: config.keyRefreshMs, onError: logError("level refresh failed") });
  await levels.start();
  const keyEvents = config.redisUrl
    ? await redisKeyEvents(config.redisUrl, keys, logError("redis key channel"))
    : localKeyEvents;

  // The tracker counts each event as the meter records it; it is made just below, with the meter to read.
  const counted: { budgets?: BudgetTracker } = {};
  const meter = new Meter(db, {
    ...config.meter,
    onRecord: (event) => counted.budgets?.record(event),
    onError: logError("writing usage events failed; will retry"),
    onRejected: (err, event) =>
      logger.error({ err, keyId: event.keyId, route: event.route }, "usage event refused by the database; dropped"),
  });
  meter.start();
  const budgets = new BudgetTracker(db, meter, {
    refreshMs: config.budgets.refreshMs,
    deliver: budgetAlertDelivery(db, logger, config.publicBaseUrl),
    onError: logError("budgets: reading usage or sending an alert failed; will retry"),
  });
  counted.budgets = budgets;
  budgets.start();
  const sessions = new SessionBridge(db, keys, {
    ttlMs: SESSION_CACHE_MS,
    trustedOrigins: [config.publicBaseUrl, process.env.NEXTAUTH_URL]
      .filter((u): u is string => !!u)
      .map((u) => new URL(u).origin),
    approval: config.keyApproval,
    operators: config.operators,
    budgets,
  });
  const retention = new RequestLogRetention(db, {
    days: config.requestLogRetentionDays,
    onError: logError("deleting expired request log rows failed; will retry"),
    onSwept: (deleted, before) => {
      if (deleted > 0) logger.info({ deleted, before }, "expired request log rows deleted");
    },
  });
  retention.start();
  const metrics = createMetrics(meter, { budgets, perKey: config.metricsPerKey });
  const taskEnded: TaskEnded = (kind, outcome, seconds) => metrics.taskDurations.observe({ kind, outcome }, seconds);
  const tasks = new TaskStore(db);
  const runner = new InProcessRunner(tasks, {
    concurrency: config.jobs.concurrency,
    queuedPerKey: config.jobs.queuedPerKey,
    runningPerKey: config.jobs.runningPerKey,
    onError: (err, taskId) => logger.error({ err, taskId }, "task failed"),
    onEnded: taskEnded,
  });
  const durableOptions = {
    activePerKey: config.jobs.activePerKey,
    timeoutMs: config.jobs.taskTimeoutMs,
    onError: (err: unknown, taskId: string) => logger.error({ err, taskId }, "research task failed"),
  };
  // BullMQ takes a second or more to load: only processes configured for Redis pay for it.
  const durable: DurableTasks = config.redisUrl
    ? new (await import("../../jobs/bullmq.ts")).BullDurable(tasks, {
        ...durableOptions,
        redisUrl: config.redisUrl,
        queue: config.jobs.queue,
        work: options.worker === true || config.jobs.workers === "inline",
        concurrency: config.jobs.concurrency,
        runningPerKey: config.jobs.runningPerKey,
        stalledMs: config.jobs.stalledMs,
        onEnded: taskEnded,
      })
    : new InProcessDurable(tasks, runner, durableOptions);
  registerTaskQueueDepth(metrics.registry, { runner, durable });
  const { store, backend } = await limitStore(config, logger, metrics);
  const limiter = new Limiter(store, logError("releasing a concurrency slot failed"));
  const cacheRedis = config.redisUrl
    ? (await import("./redis.ts")).connectRedis(config.redisUrl, "gateway-upstream-cache")
    : undefined;
  cacheRedis?.on("error", logError("redis upstream cache"));
  const upstreamCache = cacheRedis ? new RedisUpstreamCache(cacheRedis) : new MemoryUpstreamCache();

  const tracing = config.tracing && new Tracing(config.tracing);
  // The OpenTelemetry metrics SDK loads only in processes configured to export.
  const otlpMetrics =
    config.otlpMetrics &&
    new (await import("../../observability/otlp-metrics.ts")).OtlpMetrics(metrics.registry, config.otlpMetrics);

  let closing: Promise<void> | undefined;
  const disposers: Array<() => Promise<void>> = [];
  return {
    config,
    logger,
    db,
    keys,
    levels,
    keyEvents,
    sessions,
    limiter,
    meter,
    budgets,
    retention,
    tasks,
    runner,
    durable,
    metrics,
    ...(tracing && { tracing }),
    limitBackend: backend,
    upstreamCache,
    onClose: (dispose) => void disposers.push(dispose),
    close() {
      closing ??= (async () => {
        await Promise.allSettled(disposers.map((d) => d()));
        await durable.close();
        await runner.drained();
        await Promise.all([retention.stop(), meter.stop(METER_STOP_RETRY_MS), budgets.stop()]);
        await Promise.all([keys.stop(), levels.stop()]);
        await Promise.allSettled([limiter.close(), keyEvents.close(), cacheRedis?.quit()]);
        await db.close();
        // Last: the spans and the counts of the work drained above go out with it.
        await Promise.all([
          tracing?.shutdown().catch(logError("exporting the last traces failed")),
          otlpMetrics?.shutdown().catch(logError("exporting the last metrics failed")),
        ]);
      })();
      return closing;
    },
  };
}

// After Redis fails, limits stay in memory this long before Redis is tried again.
const LIMIT_RETRY_MS = 1_000;
// At most one warning a minute while limits run in memory.
const LIMIT_WARN_EVERY_MS = 60_000;

async function limitStore(
  config: Config,
  logger: Logger,
  metrics: GatewayMetrics,
): Promise<{ store: LimitStore; backend: Runtime["limitBackend"] }> {
  const shared = await sharedLimitStore(config, logger);
  if (!shared) return { store: new MemoryLimitStore(), backend: "memory" };
  let lastError: unknown;
  const warn = throttled(LIMIT_WARN_EVERY_MS, (skipped) =>
    logger.warn(
      { err: lastError, alsoInMemory: skipped },
      "limits unavailable on Redis; counting requests on this instance until it answers",
    ),
  );
  const store = new FallbackLimitStore(shared.store, new MemoryLimitStore(), {
    timeoutMs: config.limitTimeoutMs,
    retryMs: LIMIT_RETRY_MS,
    onFallback: (reason, err) => {
      metrics.limitFallbacks.inc({ reason });
      if (err) lastError = err;
      warn();
    },
    onRecover: () => logger.info("limits answer on Redis again"),
  });
  return { store, backend: shared.backend };
}

async function sharedLimitStore(
  config: Config,
  logger: Logger,
): Promise<{ store: LimitStore; backend: "redis" | "upstash" } | undefined> {
  // Redis clients load only for the backend configured (~25 MB a process on memory limits skips).
  if (config.redisUrl) {
    const { RedisLimitStore } = await import("./limits/redis-store.ts");
    const { ioredisScripts } = await import("./limits/script-runners.ts");
    const { connectRedis } = await import("./redis.ts");
    const client = connectRedis(config.redisUrl, "gateway-limits");
    // ioredis reports every failed reconnect: once a minute is enough to say why Redis is away.
    let connectionError: unknown;
    const warnConnection = throttled(LIMIT_WARN_EVERY_MS, (skipped) =>
      logger.warn({ err: connectionError, skipped }, "redis limits connection error"),
    );
    client.on("error", (err) => {
      connectionError = err;
      warnConnection();
    });
    const store = new RedisLimitStore(ioredisScripts(client), "gw:rl", async () => void (await client.quit()));
    return { store, backend: "redis" };
  }
  if (config.upstash) {
    const { RedisLimitStore } = await import("./limits/redis-store.ts");
    const { evalScripts } = await import("./limits/script-runners.ts");
    const { Redis } = await import("@upstash/redis");
    return { store: new RedisLimitStore(evalScripts(new Redis(config.upstash))), backend: "upstash" };
  }
  return undefined;
}

type RuntimeGlobal = typeof globalThis & { __gatewayRuntime?: Promise<Runtime> };

/**
 * The process's one runtime, shared by server.ts and Next's route handlers (which Next bundles
 * separately, so a module-level variable would not be shared; globalThis is).
 */
export function getRuntime(): Promise<Runtime> {
  const g = globalThis as RuntimeGlobal;
  g.__gatewayRuntime ??= createRuntime(loadConfig());
  return g.__gatewayRuntime;
}

export function setRuntime(runtime: Promise<Runtime>): void {
  (globalThis as RuntimeGlobal).__gatewayRuntime = runtime;
}
