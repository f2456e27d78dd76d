// `npm run bench`: in one run, a bare node:http server and the gateway (`npm start`'s server.ts) on
// GET /v1/key with a real key, 50 connections each, and the ratio between them. Same machine,
// same minute, so the noise of a shared 2-core box mostly cancels out. BENCH_REPEAT rounds (default 3)
// alternate the two; each round also reports the CPU each server spent per request, which other
// processes' load moves far less than req/s.
import autocannon, { type Result } from "autocannon";
import { backendEnv } from "../test/support/backends.ts";
import { ensureNextBuild } from "../test/support/next-build.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { processCpuMs } from "./process-cpu.ts";
import { createBenchKey, startScriptServer } from "./support.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const WARMUP_SECONDS = 3;

function load(url: string, headers: Record<string, string>, duration: number): Promise<Result> {
  return autocannon({ url, connections: CONNECTIONS, duration, headers });
}

/** One load run, with the CPU the server's process spent per request served. */
async function measure(pid: number | undefined, url: string, headers: Record<string, string>) {
  const before = pid === undefined ? undefined : processCpuMs(pid);
  const result = await load(url, headers, SECONDS);
  const after = pid === undefined ? undefined : processCpuMs(pid);
  const cpuUs =
    before === undefined || after === undefined ? undefined : ((after - before) * 1000) / result.requests.total;
  return { result, cpuUs };
}

function summary(round: number, name: string, r: Result, cpuUs: number | undefined) {
  return {
    round,
    server: name,
    "req/s": Math.round(r.requests.average),
    "p50 ms": r.latency.p50,
    "p99 ms": r.latency.p99,
    errors: r.errors + r.non2xx,
    "CPU µs/req": cpuUs === undefined ? "n/a" : Math.round(cpuUs),
  };
}

async function main() {
  ensureNextBuild();
  const backend = await backendEnv("pglite");
  const env = { ...backend.env, LOG_LEVEL: "warn" };
  const gateway = await startCompiledServer(env);
  const bare = await startScriptServer("bench/bare-server.ts");
  try {
    const key = await createBenchKey(env);
    const keyed = { "X-API-Key": key };

    await load(bare.url, {}, WARMUP_SECONDS);
    await load(`${gateway.url}/v1/key`, keyed, WARMUP_SECONDS);
    const rows = [];
    const ratios: number[] = [];
    const costRatios: number[] = [];
    for (let round = 1; round <= REPEAT; round++) {
      const bareRun = await measure(bare.pid, bare.url, {});
      const gatewayRun = await measure(gateway.proc.pid, `${gateway.url}/v1/key`, keyed);
      rows.push(summary(round, "bare node:http", bareRun.result, bareRun.cpuUs));
      rows.push(summary(round, "gateway GET /v1/key", gatewayRun.result, gatewayRun.cpuUs));
      ratios.push(gatewayRun.result.requests.average / bareRun.result.requests.average);
      if (bareRun.cpuUs && gatewayRun.cpuUs) costRatios.push(bareRun.cpuUs / gatewayRun.cpuUs);
    }

    console.table(rows);
    const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
    console.log(
      `throughput ratio gateway/bare per round: ${ratios.map((r) => r.toFixed(2)).join(", ")} (spread ${spread(ratios)}; target >= 0.50)`,
    );
    if (costRatios.length)
      console.log(
        `CPU cost ratio bare/gateway per request: ${spread(costRatios)} (what the throughput ratio would be with both CPU-bound on an idle core)`,
      );
    console.log(
      `gateway p99 per round (ms): ${rows
        .filter((r) => r.server !== "bare node:http")
        .map((r) => r["p99 ms"])
        .join(", ")} (target <= 10 ms)`,
    );
  } finally {
    bare.stop();
    await gateway.stop();
    await backend.cleanup();
  }
}

await main();
