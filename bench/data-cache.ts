// A cached data-source lookup against a keyed no-op route (GET /v1/key), through the same server in
// one run, plus how many requests reached the fake upstream. Target: a cache hit costs <= 1.1x the no-op.
// Rounds alternate which goes first (the machine drifts within a run); the value is the median of the
// rounds' throughput ratios, and the server's CPU a request is reported beside it.
import autocannon from "autocannon";
import { startFakeWikipedia } from "../test/fakes/data-sources.ts";
import { backendEnv } from "../test/support/backends.ts";
import { runKeysCli } from "../test/support/server-process.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { cpuPerRequest } from "./process-cpu.ts";
import { median, report, spread } from "./results.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_REPEAT ?? 3);

async function main() {
  const wiki = await startFakeWikipedia();
  const backend = await backendEnv("pglite");
  const env = { ...backend.env, LOG_LEVEL: "warn", SERVE_PORTAL: "false", UPSTREAM_WIKIPEDIA_URL: wiki.url };
  const server = await startCompiledServer(env);
  try {
    const { key } = (
      await runKeysCli(
        ["create", "--name", "bench-cache", "--minute", "100000000", "--day", "1000000000", "--concurrency", "100000"],
        env,
      )
    ).lines[0] as { key: string };
    const headers = { "X-API-Key": key };
    const cached = `${server.url}/v1/data/wikipedia/search?q=cache`;
    await fetch(cached, { headers });
    const run = (url: string, duration: number) => autocannon({ url, connections: 50, duration, headers });
    await run(`${server.url}/v1/key`, 2);
    await run(cached, 2);
    const rows = [];
    const ratios: number[] = [];
    const cpu = { noop: [] as number[], hit: [] as number[] };
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? (["noop", "hit"] as const) : (["hit", "noop"] as const);
      const results = {} as Record<"noop" | "hit", autocannon.Result>;
      for (const which of order) {
        const { result, cpuUs } = await cpuPerRequest(server.proc.pid, () =>
          run(which === "noop" ? `${server.url}/v1/key` : cached, SECONDS),
        );
        results[which] = result;
        cpu[which].push(cpuUs);
        rows.push({
          round,
          route: which === "noop" ? "GET /v1/key (keyed no-op)" : "GET /v1/data/wikipedia/search (cache hit)",
          "req/s": Math.round(result.requests.average),
          "p50 ms": result.latency.p50,
          "p99 ms": result.latency.p99,
          "CPU µs/req": Math.round(cpuUs),
        });
      }
      ratios.push(results.noop.requests.average / results.hit.requests.average);
    }
    console.table(rows);
    const upstreamHits = wiki.hits.filter((h) => h.includes("srsearch=cache")).length;
    report({
      bench: "data-cache",
      measure: "cached data-source search cost / GET /v1/key",
      value: Number(median(ratios).toFixed(2)),
      unit: "×",
      target: "<= 1.1",
      note: `rounds ${spread(ratios, 2)}; server CPU a request ${cpu.hit.map(Math.round).join(", ")} µs for the hit against ${cpu.noop.map(Math.round).join(", ")} µs for /v1/key; requests that reached the upstream: ${upstreamHits}`,
    });
  } finally {
    await server.stop();
    await wiki.close();
    await backend.cleanup();
  }
}

await main();
