// Non-streamed POST /v1/chat/completions through the gateway against the same fake provider straight,
// in one run (the provider in its own process, as fast as Node answers): throughput ratio, added p50
// and the gateway's CPU per completion. Targets: throughput >= 0.5x direct, added p50 <= 0.5 ms.
// Each round also times bench/minimal-proxy-server.ts, the least a Node relay does (read, POST upstream
// on an undici pool, pass back): its ratio is the floor under any gateway's on this machine.
import { backendEnv } from "../test/support/backends.ts";
import { CONNECTIONS, loadCompletions as load } from "./completion-load.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { cpuPerRequest } from "./process-cpu.ts";
import { median, report, spread } from "./results.ts";
import { createBenchKey, startScriptServer } from "./support.ts";

const ROUNDS = Number(process.env.BENCH_REPEAT ?? 2);

async function main() {
  const fake = await startScriptServer("bench/fake-chat-server.ts");
  const backend = await backendEnv("pglite");
  const env = {
    ...backend.env,
    LOG_LEVEL: "warn",
    SERVE_PORTAL: "false",
    XAI_API_KEY: "bench",
    UPSTREAM_XAI_URL: fake.url,
  };
  const gateway = await startCompiledServer(env);
  const proxy = await startScriptServer("bench/minimal-proxy-server.ts", { PROXY_UPSTREAM: fake.url });
  try {
    const key = await createBenchKey(env);
    const direct = `${fake.url}/v1/chat/completions`;
    const through = `${gateway.url}/v1/chat/completions`;
    const minimal = `${proxy.url}/v1/chat/completions`;
    await load(direct, {}, 2);
    await load(minimal, {}, 2);
    await load(through, { authorization: `Bearer ${key}` }, 3);
    const rows = [];
    const ratios: number[] = [];
    const floors: number[] = [];
    const proxyCpu: number[] = [];
    const added: number[] = [];
    const cpu: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const d = await load(direct, {});
      const { result: m, cpuUs: proxyUs } = await cpuPerRequest(proxy.pid, () => load(minimal, {}));
      const { result: g, cpuUs } = await cpuPerRequest(gateway.proc.pid, () =>
        load(through, { authorization: `Bearer ${key}` }),
      );
      if (g.non2xx || g.errors) throw new Error(`gateway answered ${g.non2xx} non-2xx, ${g.errors} errors`);
      rows.push({
        round,
        target: "direct",
        "req/s": Math.round(d.requests.average),
        "p50 ms": d.latency.p50,
        "p99 ms": d.latency.p99,
      });
      rows.push({
        round,
        target: "minimal Node proxy",
        "req/s": Math.round(m.requests.average),
        "p50 ms": m.latency.p50,
        "p99 ms": m.latency.p99,
        "CPU µs/req": Math.round(proxyUs),
      });
      rows.push({
        round,
        target: "gateway",
        "req/s": Math.round(g.requests.average),
        "p50 ms": g.latency.p50,
        "p99 ms": g.latency.p99,
        "CPU µs/req": Math.round(cpuUs),
      });
      ratios.push(g.requests.average / d.requests.average);
      floors.push(m.requests.average / d.requests.average);
      proxyCpu.push(proxyUs);
      added.push(g.latency.p50 - d.latency.p50);
      cpu.push(cpuUs);
    }
    console.table(rows);
    report({
      bench: "llm-completion",
      measure: `non-streamed completion throughput / direct (${CONNECTIONS} connections)`,
      value: Number(median(ratios).toFixed(3)),
      unit: "×",
      target: ">= 0.5",
      note: `rounds ${spread(ratios, 3)}; gateway CPU ${cpu.map(Math.round).join(", ")} µs a completion; the floor, a minimal Node proxy: ${spread(floors, 3)}× at ${proxyCpu.map(Math.round).join(", ")} µs`,
    });
    report({
      bench: "llm-completion",
      measure: `non-streamed completion added p50 (${CONNECTIONS} connections)`,
      value: median(added),
      unit: "ms",
      target: "<= 0.5",
      note: `rounds ${added.join(", ")} ms`,
    });
  } finally {
    fake.stop();
    proxy.stop();
    await gateway.stop();
    await backend.cleanup();
  }
}

await main();
