// Does keyless CPU work stall everyone else? p99 of GET /health while 4 clients hammer
// POST /v1/utils/text/keywords with 100 kB texts (no key), against a real server process.
// BENCH_ENV='{"KEYLESS_RATE_PER_MINUTE":"1000000"}' passes extra server settings (e.g. to measure the pool alone).
import autocannon from "autocannon";
import { backendEnv } from "../test/support/backends.ts";
import { startCompiledServer } from "./compiled-server.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const TEXT_CHARS = 100_000;

const PARAGRAPH =
  "Solar panels convert sunlight into electricity for homes and businesses. Batteries store the energy for use at night, " +
  "while inverters change direct current into alternating current. Grid operators balance supply and demand across regions. ";

async function main() {
  const backend = await backendEnv("pglite");
  const extra = JSON.parse(process.env.BENCH_ENV ?? "{}") as Record<string, string>;
  const server = await startCompiledServer({ ...backend.env, LOG_LEVEL: "warn", SERVE_PORTAL: "false", ...extra });
  try {
    const text = PARAGRAPH.repeat(Math.ceil(TEXT_CHARS / PARAGRAPH.length)).slice(0, TEXT_CHARS);
    const body = JSON.stringify({ text, top_k: 10 });
    const headers = { "content-type": "application/json" };
    // One warm-up request, so the first measured keyword call does not pay for loading the NLP model.
    await fetch(`${server.url}/v1/utils/text/keywords`, {
      method: "POST",
      headers,
      body: JSON.stringify({ text: "warm up" }),
    });

    const [hammer, health] = await Promise.all([
      autocannon({
        url: `${server.url}/v1/utils/text/keywords`,
        method: "POST",
        headers,
        body,
        connections: 4,
        duration: SECONDS,
        timeout: 60,
      }),
      autocannon({ url: `${server.url}/health`, connections: 1, duration: SECONDS, timeout: 60 }),
    ]);
    console.log(
      JSON.stringify({
        health: {
          requests: health.requests.total,
          p50_ms: health.latency.p50,
          p99_ms: health.latency.p99,
          max_ms: health.latency.max,
        },
        keywords: {
          ok: hammer["2xx"],
          refused: hammer.non2xx,
          errors: hammer.errors,
          timeouts: hammer.timeouts,
          p50_ms: hammer.latency.p50,
        },
      }),
    );
  } finally {
    await server.stop();
    await backend.cleanup();
  }
}

await main();
