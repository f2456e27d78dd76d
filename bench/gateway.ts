// `npm run bench`: in one run, a bare node:http server and the gateway (`npm start`'s server.ts) on
// GET /v1/key with a real key, 50 connections each, and the ratio between them. Same machine,
// same minute, so the noise of a shared 2-core box mostly cancels out.
import { spawn } from "node:child_process";
import autocannon, { type Result } from "autocannon";
import { backendEnv } from "../test/support/backends.ts";
import { ensureNextBuild } from "../test/support/next-build.ts";
import { runKeysCli, startServerProcess } from "../test/support/server-process.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 3;

function load(url: string, headers: Record<string, string>, duration: number): Promise<Result> {
  return autocannon({ url, connections: CONNECTIONS, duration, headers });
}

async function startBare(): Promise<{ url: string; stop: () => void }> {
  const proc = spawn(process.execPath, ["--import", "tsx", "bench/bare-server.ts"], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve) => proc.stdout.once("data", (d: Buffer) => resolve(JSON.parse(d.toString()).url)));
  return { url, stop: () => proc.kill("SIGTERM") };
}

function summary(name: string, r: Result) {
  return {
    server: name,
    "req/s": Math.round(r.requests.average),
    "p50 ms": r.latency.p50,
    "p99 ms": r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}

async function main() {
  ensureNextBuild();
  const backend = await backendEnv("pglite");
  const env = { ...backend.env, LOG_LEVEL: "warn" };
  const gateway = await startServerProcess(env);
  const bare = await startBare();
  try {
    const made = await runKeysCli(
      ["create", "--name", "bench", "--day", "1000000000", "--minute", "100000000", "--concurrency", "100000"],
      env,
    );
    const { key } = made.lines[0] as { key: string };
    const keyed = { "X-API-Key": key };

    await load(bare.url, {}, WARMUP_SECONDS);
    await load(`${gateway.url}/v1/key`, keyed, WARMUP_SECONDS);
    const bareResult = await load(bare.url, {}, SECONDS);
    const gatewayResult = await load(`${gateway.url}/v1/key`, keyed, SECONDS);

    console.table([summary("bare node:http", bareResult), summary("gateway GET /v1/key", gatewayResult)]);
    const ratio = gatewayResult.requests.average / bareResult.requests.average;
    console.log(
      `throughput ratio gateway/bare: ${ratio.toFixed(2)} (target >= 0.50); gateway p99 ${gatewayResult.latency.p99} ms (target <= 10 ms)`,
    );
  } finally {
    bare.stop();
    await gateway.stop();
    await backend.cleanup();
  }
}

await main();
