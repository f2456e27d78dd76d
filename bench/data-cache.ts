// A cached data-source lookup against a keyed no-op route (GET /v1/key), through the same server in
// one run, plus how many requests reached the fake upstream. Target: a cache hit costs <= 1.1x the no-op.
import autocannon from "autocannon";
import { startFakeWikipedia } from "../test/fakes/data-sources.ts";
import { backendEnv } from "../test/support/backends.ts";
import { runKeysCli } from "../test/support/server-process.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { report } from "./results.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

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
    const noop = await run(`${server.url}/v1/key`, SECONDS);
    const hit = await run(cached, SECONDS);
    console.table([
      {
        route: "GET /v1/key (keyed no-op)",
        "req/s": Math.round(noop.requests.average),
        "p50 ms": noop.latency.p50,
        "p99 ms": noop.latency.p99,
      },
      {
        route: "GET /v1/data/wikipedia/search (cache hit)",
        "req/s": Math.round(hit.requests.average),
        "p50 ms": hit.latency.p50,
        "p99 ms": hit.latency.p99,
      },
    ]);
    const upstreamHits = wiki.hits.filter((h) => h.includes("srsearch=cache")).length;
    report({
      bench: "data-cache",
      measure: "cached data-source search cost / GET /v1/key",
      value: Number((noop.requests.average / hit.requests.average).toFixed(2)),
      unit: "×",
      target: "<= 1.1",
      note: `requests that reached the upstream: ${upstreamHits}`,
    });
  } finally {
    await server.stop();
    await wiki.close();
    await backend.cleanup();
  }
}

await main();
