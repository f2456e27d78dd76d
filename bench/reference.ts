// AAC symbol search and corpus concordance through the gateway, each against the keyed no-op route
// (GET /v1/key) measured in the same run on the same server. Targets: AAC search costs <= 2x the
// no-op; corpus search over the largest corpus (early_modern by tokens shipped) has p50 <= 20 ms.
import autocannon from "autocannon";
import { backendEnv } from "../test/support/backends.ts";
import { runKeysCli } from "../test/support/server-process.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { report } from "./results.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const AAC_QUERIES = ["eat", "drinking", "happy", "ice cream", "hous", "toilet", "dogs", "help"];
const CORPUS_QUERIES = ["the", "love", "lov*", "of the", "king", "thou art", "*ness", "heaven"];

type Result = autocannon.Result;

function row(route: string, r: Result) {
  return {
    route,
    "req/s": Math.round(r.requests.average),
    "p50 ms": r.latency.p50,
    "p99 ms": r.latency.p99,
    errors: r.non2xx + r.errors,
  };
}

async function largestCorpus(base: string, headers: Record<string, string>): Promise<string> {
  const index = (await (await fetch(`${base}/v1/corpus/`, { headers })).json()) as {
    corpora: { name: string; tokens: number }[];
  };
  return index.corpora.reduce((a, b) => (b.tokens > a.tokens ? b : a)).name;
}

async function main() {
  const backend = await backendEnv("pglite");
  const env = { ...backend.env, LOG_LEVEL: "warn", SERVE_PORTAL: "false" };
  const server = await startCompiledServer(env);
  try {
    const created = await runKeysCli(
      [
        "create",
        "--name",
        "bench-reference",
        "--minute",
        "100000000",
        "--day",
        "1000000000",
        "--concurrency",
        "100000",
      ],
      env,
    );
    const headers = { "X-API-Key": (created.lines[0] as { key: string }).key };
    const corpus = await largestCorpus(server.url, headers);
    const aacUrls = AAC_QUERIES.map((q) => `/v1/aac/symbols/search?q=${encodeURIComponent(q)}&limit=10`);
    const corpusUrls = CORPUS_QUERIES.map(
      (q) => `/v1/corpus/search?q=${encodeURIComponent(q)}&corpus=${corpus}&limit=100`,
    );
    // Warm every index (first requests build or load them) before anything is timed.
    for (const path of [...aacUrls, ...corpusUrls]) {
      const res = await fetch(server.url + path, { headers });
      if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    }
    const run = (paths: string[], duration: number, connections: number) =>
      autocannon({
        url: server.url,
        connections,
        duration,
        headers,
        requests: paths.map((path) => ({ method: "GET", path })),
      });
    await run(["/v1/key"], 2, 50);
    await run(aacUrls, 2, 50);
    const noop = await run(["/v1/key"], SECONDS, 50);
    const aac = await run(aacUrls, SECONDS, 50);
    // p50 of a concordance is a latency target, so it is measured with one connection (no queueing).
    const noopSerial = await run(["/v1/key"], SECONDS / 2, 1);
    const concordance = await run(corpusUrls, SECONDS, 1);
    console.table([
      row("GET /v1/key (keyed no-op), 50 connections", noop),
      row("GET /v1/aac/symbols/search, 50 connections", aac),
      row("GET /v1/key (keyed no-op), 1 connection", noopSerial),
      row(`GET /v1/corpus/search corpus=${corpus}, 1 connection`, concordance),
    ]);
    report({
      bench: "reference",
      measure: "AAC search cost / GET /v1/key",
      value: Number((noop.requests.average / aac.requests.average).toFixed(2)),
      unit: "×",
      target: "<= 2",
    });
    report({
      bench: "reference",
      measure: `corpus search p50 over ${corpus}`,
      value: concordance.latency.p50,
      unit: "ms",
      target: "<= 20",
    });
  } finally {
    await server.stop();
    await backend.cleanup();
  }
}

await main();
