// In one run, a bare node:http server and the gateway (`npm start`'s server.ts) on GET /v1/key with a
// real key, 50 connections each, and the ratio between them; and GET /health against a Hono hello on
// @hono/node-server. Targets: /v1/key >= 0.5 of bare node with p99 <= 10 ms; /health >= 0.8 of Hono. Same machine,
// same minute, so the noise of a shared 2-core box mostly cancels out. BENCH_REPEAT rounds (default 3)
// alternate the two; each round also reports the CPU each server spent per request, which other
// processes' load moves far less than req/s.
import autocannon, { type Result } from "autocannon";
import { backendEnv } from "../test/support/backends.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { cpuPerRequest } from "./process-cpu.ts";
import { median, report, spread } from "./results.ts";
import { createBenchKey, startScriptServer } from "./support.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const WARMUP_SECONDS = 3;

function load(url: string, headers: Record<string, string>, duration: number): Promise<Result> {
  return autocannon({ url, connections: CONNECTIONS, duration, headers });
}

/** One load run, with the CPU the server's process spent per request served. */
const measure = (pid: number | undefined, url: string, headers: Record<string, string>) =>
  cpuPerRequest(pid, () => load(url, headers, SECONDS));

function summary(round: number, name: string, r: Result, cpuUs: number) {
  return {
    round,
    server: name,
    "req/s": Math.round(r.requests.average),
    "p50 ms": r.latency.p50,
    "p99 ms": r.latency.p99,
    errors: r.errors + r.non2xx,
    "CPU µs/req": Number.isNaN(cpuUs) ? "n/a" : Math.round(cpuUs),
  };
}

async function main() {
  const backend = await backendEnv("pglite");
  // API only: the portal changes nothing on these paths but would need a five-minute build first.
  const env = { ...backend.env, LOG_LEVEL: "warn", SERVE_PORTAL: "false" };
  const gateway = await startCompiledServer(env);
  const bare = await startScriptServer("bench/bare-server.ts");
  const hono = await startScriptServer("bench/hono-hello-server.ts");
  try {
    const key = await createBenchKey(env);
    const keyed = { "X-API-Key": key };

    await load(bare.url, {}, WARMUP_SECONDS);
    await load(`${gateway.url}/v1/key`, keyed, WARMUP_SECONDS);
    const rows = [];
    const ratios: number[] = [];
    const costRatios: number[] = [];
    const p99s: number[] = [];
    const healthRatios: number[] = [];
    const keyCpu: number[] = [];
    for (let round = 1; round <= REPEAT; round++) {
      const bareRun = await measure(bare.pid, bare.url, {});
      const gatewayRun = await measure(gateway.proc.pid, `${gateway.url}/v1/key`, keyed);
      const honoRun = await measure(hono.pid, hono.url, {});
      const healthRun = await measure(gateway.proc.pid, `${gateway.url}/health`, {});
      rows.push(summary(round, "bare node:http", bareRun.result, bareRun.cpuUs));
      rows.push(summary(round, "gateway GET /v1/key", gatewayRun.result, gatewayRun.cpuUs));
      rows.push(summary(round, "Hono hello", honoRun.result, honoRun.cpuUs));
      rows.push(summary(round, "gateway GET /health", healthRun.result, healthRun.cpuUs));
      ratios.push(gatewayRun.result.requests.average / bareRun.result.requests.average);
      healthRatios.push(healthRun.result.requests.average / honoRun.result.requests.average);
      p99s.push(gatewayRun.result.latency.p99);
      if (gatewayRun.cpuUs) keyCpu.push(gatewayRun.cpuUs);
      if (bareRun.cpuUs && gatewayRun.cpuUs) costRatios.push(bareRun.cpuUs / gatewayRun.cpuUs);
    }

    console.table(rows);
    report({
      bench: "gateway",
      measure: `GET /v1/key throughput / bare node:http (${CONNECTIONS} connections)`,
      value: Number(median(ratios).toFixed(2)),
      unit: "×",
      target: ">= 0.5",
      note: `rounds ${spread(ratios)}; CPU ${Math.round(median(keyCpu))} µs a request${costRatios.length ? `, CPU cost ratio bare/gateway ${spread(costRatios)}` : ""}`,
    });
    report({
      bench: "gateway",
      measure: "GET /v1/key p99",
      value: median(p99s),
      unit: "ms",
      target: "<= 10",
      note: `rounds ${p99s.join(", ")} ms`,
    });
    report({
      bench: "gateway",
      measure: "GET /health throughput / Hono hello on @hono/node-server",
      value: Number(median(healthRatios).toFixed(2)),
      unit: "×",
      target: ">= 0.8",
      note: `rounds ${spread(healthRatios)}`,
    });
  } finally {
    bare.stop();
    hono.stop();
    await gateway.stop();
    await backend.cleanup();
  }
}

await main();
