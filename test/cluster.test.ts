import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { descendants } from "../bench/process-cpu.ts";
import { databaseBackends, freshPostgres, tempDir } from "./support/backends.ts";
import { startClusterProcess, type ServerProcess } from "./support/server-process.ts";

/** `npm run cluster` (scripts/cluster.mjs). Its load is test/load/cluster-load.test.ts. */
describe("npm run cluster", () => {
  const refusal = (env: Record<string, string>) => {
    const { DATABASE_URL: _db, REDIS_URL: _redis, ...rest } = process.env;
    return spawnSync(process.execPath, ["scripts/cluster.mjs"], { env: { ...rest, ...env }, encoding: "utf8" });
  };

  it("refuses the embedded database, which one process holds, saying what it needs", () => {
    const run = refusal({ REDIS_URL: "redis://127.0.0.1:6379" });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/needs DATABASE_URL \(PostgreSQL\) and REDIS_URL.*PGlite/);
  });

  it("refuses a number of web instances it cannot start", () => {
    const run = refusal({
      DATABASE_URL: "postgres://127.0.0.1/x",
      REDIS_URL: "redis://127.0.0.1:6379",
      CLUSTER_WEB_INSTANCES: "0",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/CLUSTER_WEB_INSTANCES must be a whole number from 1 to 64/);
  });

  const shared = Boolean(process.env.REDIS_URL) && databaseBackends.includes("postgres");
  describe.runIf(shared)("on PostgreSQL and Redis", () => {
    let cluster: ServerProcess | undefined;
    let drop: (() => Promise<void>) | undefined;
    const dataDir = tempDir("cluster");
    afterAll(async () => {
      await cluster?.stop("SIGKILL");
      await drop?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it(
      "replaces a web process that dies, and on SIGTERM drains every process and exits 0",
      { timeout: 120_000 },
      async () => {
        const database = await freshPostgres();
        drop = database.drop;
        cluster = await startClusterProcess({
          DATABASE_URL: database.url,
          REDIS_URL: process.env.REDIS_URL!,
          DATA_DIR: dataDir,
          SERVE_PORTAL: "false",
          JOB_QUEUE: `gw-cluster-${randomBytes(4).toString("hex")}`,
        });
        const pid = cluster.proc.pid!;
        const cmdline = (p: number) => fs.readFileSync(`/proc/${p}/cmdline`, "utf8");
        const children = descendants(pid);
        const web = children.filter((p) => cmdline(p).includes("dist/server.mjs"));
        expect(web).toHaveLength(2);
        expect(children.filter((p) => cmdline(p).includes("dist/worker.mjs"))).toHaveLength(1);

        // A process that dies within 10 s of starting is failing to start, and stops the cluster instead.
        await new Promise((resolve) => setTimeout(resolve, 10_500));
        process.kill(web[0]!, "SIGKILL");
        await expect
          .poll(() => cluster!.output().match(/"msg":"gateway listening"/g)?.length, { timeout: 60_000, interval: 200 })
          .toBe(3);
        expect(cluster.output()).toMatch(/"signal":"SIGKILL".*"msg":"web process exited"/);
        expect((await fetch(`${cluster.url}/health`)).status).toBe(200);

        const running = descendants(pid);
        expect(await cluster.stop("SIGTERM")).toBe(0);
        expect(running.filter((p) => fs.existsSync(`/proc/${p}`))).toEqual([]);
        expect(cluster.output().match(/"msg":"stopped"/g)).toHaveLength(2);
      },
    );
  });
});
