import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { openDatabase } from "../../lib/db/client.ts";
import { applyMigrations } from "../../lib/db/migrate.ts";
import { databaseBackends, freshPostgres, tempDir } from "../support/backends.ts";
import { startClusterProcess } from "../support/server-process.ts";
import {
  checkStoredUsage,
  createLoadKeys,
  describe as summarise,
  HOLD_MS,
  runLoad,
  startWithRoomInMinute,
} from "./limit-load.ts";
import { startSlowProvider } from "./slow-provider.ts";

// `npm run test:load` sets 30 s and 200 keys; `npm test` runs this bounded version.
const SECONDS = Number(process.env.LOAD_SECONDS ?? 5);
const KEYS = Number(process.env.LOAD_KEYS ?? 20);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 48);
const INSTANCES = 3;

const sharedBackends = Boolean(process.env.REDIS_URL) && databaseBackends.includes("postgres");

/**
 * Three web instances (`npm run cluster`) on one PostgreSQL and one Redis, driven at
 * saturation by keys with small limits; then the cluster is stopped (SIGTERM drains usage) and every
 * limit is checked against the usage rows the instances stored.
 */
describe.runIf(sharedBackends)(`${INSTANCES} instances at saturation for ${SECONDS} s, ${KEYS} keys`, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  let env: Record<string, string>;
  let provider: Awaited<ReturnType<typeof startSlowProvider>>;

  beforeAll(async () => {
    const database = await freshPostgres();
    cleanups.push(database.drop);
    provider = await startSlowProvider(HOLD_MS);
    cleanups.push(() => provider.close());
    const dataDir = tempDir("load");
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    env = {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL!,
      DATA_DIR: dataDir,
      SERVE_PORTAL: "false",
      // Every row is checked against what its client was answered, so none may be left out of the log.
      REQUEST_LOG_ROWS_PER_KEY_SECOND: "0",
      CLUSTER_WEB_INSTANCES: String(INSTANCES),
      // Its own research queue: a worker on a shared Redis must not take other suites' tasks.
      JOB_QUEUE: `gw-load-${randomBytes(4).toString("hex")}`,
      XAI_API_KEY: "load",
      UPSTREAM_XAI_URL: provider.url,
      // Shared counting is under test, not the per-instance fallback a slow answer on a busy machine takes.
      LIMIT_REDIS_TIMEOUT_MS: "5000",
    };
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it(
    "never lets a key past its minute, day or concurrency limit, stores every answer and answers no 5xx",
    { timeout: 240_000 },
    async () => {
      const db = await openDatabase(loadConfig(env));
      await applyMigrations(db);
      const keys = await createLoadKeys(db, KEYS).finally(() => db.close());

      const cluster = await startClusterProcess(env);
      cleanups.push(() => void cluster.stop("SIGKILL"));
      // The primary announces the port once every child listens; each child's own line may come just after.
      await expect.poll(() => cluster.output().match(/"msg":"gateway listening"/g)?.length).toBe(INSTANCES);
      await startWithRoomInMinute(Math.min(SECONDS, 8));
      const run = await runLoad(cluster.url, keys, SECONDS, CONNECTIONS);
      // SIGTERM drains every instance's buffered usage before it exits.
      expect(await cluster.stop("SIGTERM"), cluster.output().slice(-3000)).toBe(0);

      const findings = await checkStoredUsage(env.DATABASE_URL!, keys, run, provider.maxInFlight);
      console.log(summarise(findings, INSTANCES));
      expect(findings.status5xx).toBe(0);
      expect(findings.networkErrors).toBe(0);
      expect(findings.unmatched).toEqual([]);
      expect(findings.stored).toBe(findings.requests);
      expect(findings.overLimit).toEqual([]);
      expect(findings.accuracy).toEqual({
        day: { min: 1, max: 1 },
        minute: { min: 1, max: 1 },
        concurrency: { min: 1, max: 1 },
      });
    },
  );
});
