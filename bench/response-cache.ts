// What the response cache costs and gives, through one gateway in one run:
// - a hit (POST /v1/chat/completions with Cache-Control: max-age, its answer kept) against the keyed
//   no-op GET /v1/key, in throughput: target >= 0.9x (a hit is a keyed lookup, not a provider call);
//   and, as the floor any hit stands on, a keyed POST of the same body refused after its body was read,
//   parsed, validated and routed (a 400 for a provider the gateway does not know): what a POST costs
//   before the cache does anything;
// - a miss against today's relay, in gateway CPU a completion: the same completions, each a question
//   not asked before, with the header (key, lookup, answer kept) and without it. Target: <= 10 µs more.
// The gateway runs on a CPU of its own (the load and the fake provider on the other), rounds alternate
// which goes first, and the completions are offered at a fixed rate (60 % of the relay's flat-out
// rate) so both do the same work a second. The minimal Node relay is timed in the same run as the floor.
import autocannon from "autocannon";
import { backendEnv } from "../test/support/backends.ts";
import { loadCompletions } from "./completion-load.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { cpuPerRequest } from "./process-cpu.ts";
import { median, report, spread } from "./results.ts";
import { createBenchKey, pinToCpu, startScriptServer } from "./support.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_CACHE_ROUNDS ?? 6);

/** Completions, each a question the cache has not seen. */
const fresh = (url: string, headers: Record<string, string>, duration: number, overallRate?: number) =>
  loadCompletions(url, headers, duration, overallRate, { fresh: true });

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
  const server = await startCompiledServer(env);
  const pinned = [process.pid, fake.pid, proxy.pid].every((pid) => pinToCpu(pid, 0)) && pinToCpu(server.proc.pid, 1);
  try {
    const key = await createBenchKey(env);
    const auth = { authorization: `Bearer ${key}` };
    const completions = `${server.url}/v1/chat/completions`;
    const hitBody = JSON.stringify({ model: "xai/grok-4-fast", messages: [{ role: "user", content: "Say hello." }] });
    const hitHeaders = { ...auth, "content-type": "application/json", "cache-control": "max-age=86400" };
    const first = await fetch(completions, { method: "POST", headers: hitHeaders, body: hitBody });
    if (first.headers.get("x-gateway-cache") !== "miss") throw new Error("the first cached request was not a miss");
    const noop = (duration: number) =>
      autocannon({ url: `${server.url}/v1/key`, connections: 50, duration, headers: auth });
    const hit = (duration: number) =>
      autocannon({ url: completions, method: "POST", connections: 50, duration, headers: hitHeaders, body: hitBody });
    const refusedBody = JSON.stringify({ model: "nope/x", messages: [{ role: "user", content: "Say hello." }] });
    const refused = (duration: number) =>
      autocannon({
        url: completions,
        method: "POST",
        connections: 50,
        duration,
        headers: { ...auth, "content-type": "application/json" },
        body: refusedBody,
      });
    await noop(2);
    await hit(2);
    const flatOut = (await fresh(completions, auth, 3)).requests.average;
    await fresh(completions, { ...auth, "cache-control": "max-age=60" }, 2);
    const rate = Math.round(0.6 * flatOut);

    const rows = [];
    const hitRatios: number[] = [];
    const floorRatios: number[] = [];
    const missAdded: number[] = [];
    const cpu = {
      noop: [] as number[],
      hit: [] as number[],
      post: [] as number[],
      relay: [] as number[],
      miss: [] as number[],
    };
    const floor: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? (["noop", "hit", "post"] as const) : (["post", "hit", "noop"] as const);
      const rps = {} as Record<"noop" | "hit" | "post", number>;
      const load = { noop, hit, post: refused };
      const named = { noop: "GET /v1/key (keyed no-op)", hit: "cache hit", post: "keyed POST refused at routing" };
      for (const which of order) {
        const { result, cpuUs } = await cpuPerRequest(server.proc.pid, () => load[which](SECONDS));
        const wrong = which === "post" ? result.requests.total - result.non2xx : result.non2xx;
        if (wrong || result.errors) throw new Error(`${which}: ${wrong} unexpected statuses, ${result.errors} errors`);
        rps[which] = result.requests.average;
        cpu[which].push(cpuUs);
        rows.push({
          round,
          what: named[which],
          "req/s": Math.round(result.requests.average),
          "CPU µs/req": Math.round(cpuUs),
        });
      }
      hitRatios.push(rps.hit / rps.noop);
      floorRatios.push(rps.post / rps.noop);

      const { cpuUs: proxyUs } = await cpuPerRequest(proxy.pid, () =>
        fresh(`${proxy.url}/v1/chat/completions`, {}, SECONDS, rate),
      );
      floor.push(proxyUs);
      const pair = round % 2 ? (["relay", "miss"] as const) : (["miss", "relay"] as const);
      const us = {} as Record<"relay" | "miss", number>;
      for (const which of pair) {
        const headers = which === "miss" ? { ...auth, "cache-control": "max-age=60" } : auth;
        const { result, cpuUs } = await cpuPerRequest(server.proc.pid, () =>
          fresh(completions, headers, SECONDS, rate),
        );
        if (result.non2xx || result.errors)
          throw new Error(`${which}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        us[which] = cpuUs;
        cpu[which].push(cpuUs);
        rows.push({
          round,
          what: which === "miss" ? "cache miss (answer kept)" : "relay, no cache asked",
          "req/s": Math.round(result.requests.average),
          "CPU µs/req": Math.round(cpuUs),
        });
      }
      missAdded.push(us.miss - us.relay);
    }
    console.table(rows);
    const where = pinned ? "gateway on a CPU of its own" : "gateway not pinned";
    report({
      bench: "response-cache",
      measure: `cache hit throughput / GET /v1/key (${where})`,
      value: Number(median(hitRatios).toFixed(2)),
      unit: "×",
      target: ">= 0.9",
      note: `rounds ${spread(hitRatios, 2)}; gateway CPU a request ${cpu.hit.map(Math.round).join(", ")} µs for a hit, ${cpu.noop.map(Math.round).join(", ")} µs for /v1/key; the floor, a keyed POST refused at routing: ${median(floorRatios).toFixed(2)}× /v1/key (rounds ${spread(floorRatios, 2)}), ${cpu.post.map(Math.round).join(", ")} µs`,
    });
    report({
      bench: "response-cache",
      measure: `gateway CPU a cache miss adds to a relayed completion (${rate} req/s, ${where})`,
      value: Math.round(median(missAdded)),
      unit: "µs",
      target: "<= 10",
      note: `rounds ${missAdded.map(Math.round).join(", ")} µs; relay ${spread(cpu.relay, 0)} µs, miss ${spread(cpu.miss, 0)} µs a completion; the floor, a minimal Node proxy: ${floor.map(Math.round).join(", ")} µs`,
    });
  } finally {
    fake.stop();
    proxy.stop();
    await server.stop();
    await backend.cleanup();
  }
}

await main();
