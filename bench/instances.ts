// (1) GET /v1/key on `npm run cluster` with 2 web instances against 1, on the same
// machine in the same run (both clusters up, rounds alternating), with the CPU each spent per request:
// read it beside the core count, since the load generator shares the same cores. (2) The limiter's
// accuracy under load across 3 instances: test/load's run (small limits at saturation), checked
// against the usage the instances stored.
import os from "node:os";
import autocannon from "autocannon";
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../lib/db/client.ts";
import { applyMigrations } from "../lib/db/migrate.ts";
import { freshPostgres, tempDir } from "../test/support/backends.ts";
import { startClusterProcess, type ServerProcess } from "../test/support/server-process.ts";
import {
  checkStoredUsage,
  createLoadKeys,
  describe,
  HOLD_MS,
  runLoad,
  startWithRoomInMinute,
} from "../test/load/limit-load.ts";
import { startSlowProvider } from "../test/load/slow-provider.ts";
import { processTreeCpuMs } from "./process-cpu.ts";
import { median, report, spread } from "./results.ts";
import { createBenchKey, startScriptServer } from "./support.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 10);
const LOAD_KEYS = Number(process.env.LOAD_KEYS ?? 60);
const cores = os.availableParallelism();

if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
  // Not a failure of `npm run bench` on a machine without them: there is nothing here to measure.
  console.log("skipped: several instances need DATABASE_URL (PostgreSQL) and REDIS_URL to share");
  process.exit(0);
}

async function measure(cluster: { url: string; pid: number }, key?: string) {
  const before = processTreeCpuMs(cluster.pid);
  const r = await autocannon({
    url: key ? `${cluster.url}/v1/key` : cluster.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: key ? { "x-api-key": key } : {},
  });
  const after = processTreeCpuMs(cluster.pid);
  if (r.non2xx || r.errors) throw new Error(`${r.non2xx} non-2xx answers, ${r.errors} errors`);
  const cpuUs = before === undefined || after === undefined ? NaN : ((after - before) * 1000) / r.requests.total;
  return { rps: r.requests.average, p99: r.latency.p99, cpuUs };
}

async function scaling(base: Record<string, string>) {
  const key = await createBenchKey(base);
  const one = await startClusterProcess({ ...base, CLUSTER_WEB_INSTANCES: "1", DATA_DIR: tempDir("bench1") });
  const two = await startClusterProcess({ ...base, CLUSTER_WEB_INSTANCES: "2", DATA_DIR: tempDir("bench2") });
  // The floor: the least server there is, on node:cluster with one worker and with two.
  const bare = await Promise.all(
    ["1", "2"].map((n) => startScriptServer("bench/bare-cluster-server.ts", { INSTANCES: n })),
  );
  const gateway = [one, two].map((p: ServerProcess) => ({ url: p.url, pid: p.proc.pid! }));
  const floor = bare.map((b) => ({ url: b.url, pid: b.pid! }));
  try {
    for (const b of bare) await autocannon({ url: b.url, connections: CONNECTIONS, duration: 2 });
    await autocannon({
      url: `${one.url}/v1/key`,
      connections: CONNECTIONS,
      duration: 3,
      headers: { "x-api-key": key },
    });
    await autocannon({
      url: `${two.url}/v1/key`,
      connections: CONNECTIONS,
      duration: 3,
      headers: { "x-api-key": key },
    });
    const rows: Array<{ round: number; instances: number; "req/s": number; "p99 ms": number; "CPU µs/req": number }> =
      [];
    const ratios: number[] = [];
    const floors: number[] = [];
    for (let round = 1; round <= REPEAT; round++) {
      const a = await measure(gateway[0]!, key);
      const b = await measure(gateway[1]!, key);
      ratios.push(b.rps / a.rps);
      const bareOne = await measure(floor[0]!);
      const bareTwo = await measure(floor[1]!);
      floors.push(bareTwo.rps / bareOne.rps);
      for (const [n, m] of [
        [1, a],
        [2, b],
      ] as const)
        rows.push({
          round,
          instances: n,
          "req/s": Math.round(m.rps),
          "p99 ms": m.p99,
          "CPU µs/req": Math.round(m.cpuUs),
        });
    }
    console.table(rows);
    const cpu = (n: number) => Math.round(median(rows.filter((r) => r.instances === n).map((r) => r["CPU µs/req"])));
    report({
      bench: "instances",
      measure: `GET /v1/key throughput, 2 instances / 1 (${cores} cores, load generator on the same cores)`,
      value: Number(median(ratios).toFixed(2)),
      unit: "×",
      target: ">= 1.5",
      note: `rounds ${spread(ratios)}; CPU a request (every process of the cluster) ${cpu(1)} µs with 1, ${cpu(2)} µs with 2; the floor, a bare node:http answer on node:cluster: 2 workers / 1 ${spread(floors)}`,
    });
  } finally {
    await one.stop();
    await two.stop();
    for (const b of bare) b.stop();
  }
}

async function accuracy(base: Record<string, string>) {
  const provider = await startSlowProvider(HOLD_MS);
  const env = {
    ...base,
    CLUSTER_WEB_INSTANCES: "3",
    // Every row is checked against what its client was answered, so none may be left out of the request
    // log (by default a key past 100 requests a second keeps only 100 rows a second, which this load reaches).
    REQUEST_LOG_ROWS_PER_KEY_SECOND: "0",
    XAI_API_KEY: "bench",
    UPSTREAM_XAI_URL: provider.url,
    DATA_DIR: tempDir("bench3"),
  };
  const db = await openDatabase(loadConfig(env));
  const keys = await createLoadKeys(db, LOAD_KEYS).finally(() => db.close());
  const cluster = await startClusterProcess(env);
  try {
    await startWithRoomInMinute(8);
    const run = await runLoad(cluster.url, keys, LOAD_SECONDS, 48);
    if ((await cluster.stop()) !== 0)
      throw new Error(`the cluster did not drain cleanly:\n${cluster.output().slice(-2000)}`);
    const f = await checkStoredUsage(base.DATABASE_URL!, keys, run, provider.maxInFlight);
    console.log(describe(f, 3));
    const ratios = Object.values(f.accuracy);
    const note = `${LOAD_KEYS} keys, ${f.seconds.toFixed(1)} s, ${Math.round(f.throughput)} req/s; day ${f.accuracy.day.min}–${f.accuracy.day.max}, minute ${f.accuracy.minute.min}–${f.accuracy.minute.max}, concurrency ${f.accuracy.concurrency.min}–${f.accuracy.concurrency.max}`;
    const worst = { bench: "instances", unit: "×", note };
    report({
      ...worst,
      measure: "limiter across 3 instances: highest allowed/limit of any key",
      value: Math.max(...ratios.map((r) => r.max)),
      target: "<= 1",
    });
    report({
      ...worst,
      measure: "limiter across 3 instances: lowest allowed/limit of any key",
      value: Math.min(...ratios.map((r) => r.min)),
      target: ">= 1",
    });
    report({
      bench: "instances",
      measure: "limiter across 3 instances: usage rows not matching answers, plus 5xx",
      value: f.unmatched.length + Math.abs(f.stored - f.requests) + f.status5xx + f.networkErrors,
      unit: "",
      target: "<= 0",
    });
  } finally {
    await cluster.stop();
    await provider.close();
  }
}

const database = await freshPostgres();
const base: Record<string, string> = {
  DATABASE_URL: database.url,
  REDIS_URL: process.env.REDIS_URL!,
  SERVE_PORTAL: "false",
  JOB_QUEUE: `gw-bench-${process.pid}`,
  // Shared counting is measured, not the per-instance fallback a slow answer on a busy machine takes.
  LIMIT_REDIS_TIMEOUT_MS: "5000",
};
try {
  const db = await openDatabase(loadConfig({ ...base, DATA_DIR: tempDir("bench") }));
  await applyMigrations(db);
  await db.close();
  await scaling({ ...base, DATA_DIR: tempDir("bench") });
  await accuracy(base);
} finally {
  await database.drop();
}
