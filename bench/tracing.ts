// What tracing costs a relayed completion: the same non-streamed POST /v1/chat/completions through two
// gateways in one run, one with tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT) and one exporting every
// trace (100 % sampling, OTLP/HTTP protobuf, the default) to a collector in its own process. Rounds
// alternate off/on so the machine's drift falls on both. Target: tracing on adds <= 25 µs of gateway
// CPU per completion. Bare node:http and the minimal Node relay are timed in the same run as the floor.
//
// Method: both gateways share one CPU, the load generator, the fake provider, the collector and the
// floor another (taskset, on a machine with two CPUs or more), so neither gateway is preempted by the
// load it measures. Each round loads both at once with the same fixed rate, 60 % of what the slower one
// answered flat out while warming, so the two do the same work in the same seconds and their CPU a
// completion differs only by what tracing adds (flat out, the slower one would also batch less of its I/O
// per wake-up).
import { backendEnv } from "../test/support/backends.ts";
import { CONNECTIONS, loadCompletions as load } from "./completion-load.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { cpuPerRequest } from "./process-cpu.ts";
import { median, report, spread } from "./results.ts";
import { createBenchKey, pinToCpu, startScriptServer } from "./support.ts";

// More rounds than most benches: the difference sought is a tenth of what a completion costs.
const ROUNDS = Number(process.env.BENCH_TRACING_ROUNDS ?? 8);
const ROUND_SECONDS = 5;

async function main() {
  const fake = await startScriptServer("bench/fake-chat-server.ts");
  const sink = await startScriptServer("bench/otlp-sink-server.ts");
  const proxy = await startScriptServer("bench/minimal-proxy-server.ts", { PROXY_UPSTREAM: fake.url });
  // On PostgreSQL when there is one: the embedded database's own work (its writes, checkpoints) runs in the
  // gateway's process and moves its CPU a request by ±200 µs between rounds, ten times the difference sought.
  const db = process.env.DATABASE_URL ? "postgres" : "pglite";
  const backends = await Promise.all([backendEnv(db), backendEnv(db)]);
  const base = { LOG_LEVEL: "warn", SERVE_PORTAL: "false", XAI_API_KEY: "bench", UPSTREAM_XAI_URL: fake.url };
  const offEnv = { ...backends[0]!.env, ...base };
  const onEnv = {
    ...backends[1]!.env,
    ...base,
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_TRACES_SAMPLER_ARG: "1",
    ...(process.env.BENCH_OTEL_BATCH && { OTEL_BSP_MAX_EXPORT_BATCH_SIZE: process.env.BENCH_OTEL_BATCH }),
  };
  const [off, on] = [await startCompiledServer(offEnv), await startCompiledServer(onEnv)];
  const pinned =
    [process.pid, fake.pid, sink.pid, proxy.pid].every((pid) => pinToCpu(pid, 0)) &&
    [off, on].every((g) => pinToCpu(g.proc.pid, 1));
  try {
    const gateways = [
      { name: "tracing off", server: off, key: await createBenchKey(offEnv) },
      { name: "tracing on (100 %)", server: on, key: await createBenchKey(onEnv) },
    ];
    const minimal = `${proxy.url}/v1/chat/completions`;
    await load(minimal, {}, 2);
    const flatOut: number[] = [];
    for (const g of gateways) {
      const warm = await load(`${g.server.url}/v1/chat/completions`, { authorization: `Bearer ${g.key}` }, 3);
      flatOut.push(warm.requests.average);
    }
    const rate = Math.round(0.6 * Math.min(...flatOut));
    const rows = [];
    const cpu: Record<string, number[]> = { "tracing off": [], "tracing on (100 %)": [] };
    const floor: number[] = [];
    const added: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const { result: m, cpuUs: proxyUs } = await cpuPerRequest(proxy.pid, () =>
        load(minimal, {}, ROUND_SECONDS, rate),
      );
      floor.push(proxyUs);
      rows.push({
        round,
        target: "minimal Node proxy",
        "req/s": Math.round(m.requests.average),
        "CPU µs/req": Math.round(proxyUs),
      });
      // Both gateways under the same load at the same time, so whatever else the machine does in a round
      // falls on both alike: alternating rounds measured each in a different second, and a shared 2-CPU
      // machine moved a completion's CPU by ±200 µs between seconds.
      const roundCpu: Record<string, number> = {};
      const measured = await Promise.all(
        gateways.map((g) =>
          cpuPerRequest(g.server.proc.pid, () =>
            load(`${g.server.url}/v1/chat/completions`, { authorization: `Bearer ${g.key}` }, ROUND_SECONDS, rate),
          ),
        ),
      );
      gateways.forEach((g, i) => {
        const { result, cpuUs } = measured[i]!;
        if (result.non2xx || result.errors)
          throw new Error(`${g.name} answered ${result.non2xx} non-2xx, ${result.errors} errors`);
        cpu[g.name]!.push(cpuUs);
        roundCpu[g.name] = cpuUs;
        rows.push({
          round,
          target: g.name,
          "req/s": Math.round(result.requests.average),
          "p50 ms": result.latency.p50,
          "CPU µs/req": Math.round(cpuUs),
        });
      });
      added.push(roundCpu["tracing on (100 %)"]! - roundCpu["tracing off"]!);
    }
    console.table(rows);
    report({
      bench: "tracing",
      measure: `gateway CPU added per relayed completion by tracing at 100 % sampling (${rate} req/s over ${CONNECTIONS} connections, ${db === "postgres" ? "PostgreSQL" : "PGlite"}${pinned ? ", gateways on a CPU of their own" : ""})`,
      value: Math.round(median(added)),
      unit: "µs",
      target: "<= 25",
      note: `rounds ${added.map(Math.round).join(", ")} µs; off ${spread(cpu["tracing off"]!, 0)} µs, on ${spread(cpu["tracing on (100 %)"]!, 0)} µs a completion; the floor, a minimal Node proxy: ${floor.map(Math.round).join(", ")} µs`,
    });
  } finally {
    fake.stop();
    sink.stop();
    proxy.stop();
    await Promise.all([off.stop(), on.stop()]);
    await Promise.all(backends.map((b) => b.cleanup()));
  }
}

await main();
