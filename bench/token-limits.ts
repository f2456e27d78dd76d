// What token limits cost a relayed completion, through one gateway in one run: the same completions
// for a key with token limits (each call reserves its estimate in the limit store and is settled with
// what it used) and for a key without (one property check). Target: the difference is within what the
// issue allows a multi-level check, <= 10 µs. The gateway runs on a CPU of its own (the load and the fake
// provider on the other); rounds alternate which key goes first, at a fixed rate (60 % of the relay's
// flat-out rate) so both do the same work a second. The minimal Node relay is timed in the same run as the floor.
import { backendEnv } from "../test/support/backends.ts";
import { runKeysCli } from "../test/support/server-process.ts";
import { loadCompletions } from "./completion-load.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { cpuPerRequest } from "./process-cpu.ts";
import { median, report, spread } from "./results.ts";
import { createBenchKey, pinToCpu, startScriptServer } from "./support.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_TOKEN_ROUNDS ?? 6);

async function main() {
  const fake = await startScriptServer("bench/fake-chat-server.ts");
  const proxy = await startScriptServer("bench/minimal-proxy-server.ts", { PROXY_UPSTREAM: fake.url });
  const backend = await backendEnv("pglite");
  const env = {
    ...backend.env,
    LOG_LEVEL: "warn",
    SERVE_PORTAL: "false",
    XAI_API_KEY: "bench",
    UPSTREAM_XAI_URL: fake.url,
  };
  const plainKey = await createBenchKey(env);
  // Limits no load here reaches: every call reserves, is admitted and is settled.
  const made = await runKeysCli(
    [
      "create",
      "--name",
      "bench-tokens",
      "--day",
      "1000000000",
      "--minute",
      "100000000",
      "--concurrency",
      "100000",
      "--tokens-minute",
      "2000000000",
      "--tokens-day",
      "2000000000",
    ],
    env,
  );
  const tokenKey = (made.lines[0] as { key: string }).key;
  const server = await startCompiledServer(env);
  const pinned = [process.pid, fake.pid, proxy.pid].every((pid) => pinToCpu(pid, 0)) && pinToCpu(server.proc.pid, 1);
  try {
    const completions = `${server.url}/v1/chat/completions`;
    const keys = { plain: { authorization: `Bearer ${plainKey}` }, tokens: { authorization: `Bearer ${tokenKey}` } };
    const probe = await fetch(completions, {
      method: "POST",
      headers: { ...keys.tokens, "content-type": "application/json" },
      body: JSON.stringify({ model: "xai/grok-4-fast", messages: [{ role: "user", content: "Say hello." }] }),
    });
    if (!probe.headers.get("x-ratelimit-limit-tokens")) throw new Error("the token-limited key was not limited");
    const flatOut = (await loadCompletions(completions, keys.plain, 3)).requests.average;
    await loadCompletions(completions, keys.tokens, 2);
    const rate = Math.round(0.6 * flatOut);
    const rows = [];
    const added: number[] = [];
    const cpu = { plain: [] as number[], tokens: [] as number[] };
    const floor: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const { cpuUs: proxyUs } = await cpuPerRequest(proxy.pid, () =>
        loadCompletions(`${proxy.url}/v1/chat/completions`, {}, SECONDS, rate),
      );
      floor.push(proxyUs);
      const order = round % 2 ? (["plain", "tokens"] as const) : (["tokens", "plain"] as const);
      const us = {} as Record<"plain" | "tokens", number>;
      for (const which of order) {
        const { result, cpuUs } = await cpuPerRequest(server.proc.pid, () =>
          loadCompletions(completions, keys[which], SECONDS, rate),
        );
        if (result.non2xx || result.errors)
          throw new Error(`${which}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        us[which] = cpuUs;
        cpu[which].push(cpuUs);
        rows.push({
          round,
          what: which === "tokens" ? "key with token limits" : "key without",
          "req/s": Math.round(result.requests.average),
          "CPU µs/req": Math.round(cpuUs),
        });
      }
      added.push(us.tokens - us.plain);
    }
    console.table(rows);
    report({
      bench: "token-limits",
      measure: `gateway CPU token limits add to a relayed completion (${rate} req/s, ${pinned ? "gateway on a CPU of its own" : "gateway not pinned"})`,
      value: Math.round(median(added)),
      unit: "µs",
      target: "<= 10",
      note: `rounds ${added.map(Math.round).join(", ")} µs; without ${spread(cpu.plain, 0)} µs, with ${spread(cpu.tokens, 0)} µs a completion; the floor, a minimal Node proxy: ${floor.map(Math.round).join(", ")} µs`,
    });
  } finally {
    fake.stop();
    proxy.stop();
    await server.stop();
    await backend.cleanup();
  }
}

await main();
