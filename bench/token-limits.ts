// What token limits and limits above the key cost a relayed completion, through one gateway in one run:
// the same completions for a key without limits of its own or above it (one size check), a key with token
// limits (each call reserves its estimate in the limit store and is settled with what it used), and a
// team key whose user, team and organisation each limit requests and tokens (every window of four levels
// checked and counted in one store step, then reserved and settled in one more). Target: each costs
// <= 10 µs over the plain key. The gateway runs on a CPU of its own (the load and the fake provider on the
// other); rounds rotate which key goes first, at a fixed rate (60 % of the relay's flat-out rate) so all
// do the same work a second. The minimal Node relay is timed in the same run as the floor.
import { backendEnv } from "../test/support/backends.ts";
import { runKeysCli } from "../test/support/server-process.ts";
import { loadCompletions } from "./completion-load.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { cpuPerRequest } from "./process-cpu.ts";
import { median, report, spread } from "./results.ts";
import { pinToCpu, startScriptServer } from "./support.ts";

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
  const { plainKey, tokenKey, levelKey } = await benchKeys(env);
  const server = await startCompiledServer(env);
  const pinned = [process.pid, fake.pid, proxy.pid].every((pid) => pinToCpu(pid, 0)) && pinToCpu(server.proc.pid, 1);
  try {
    const completions = `${server.url}/v1/chat/completions`;
    const keys = {
      plain: { authorization: `Bearer ${plainKey}` },
      tokens: { authorization: `Bearer ${tokenKey}` },
      levels: { authorization: `Bearer ${levelKey}` },
    };
    const probe = await fetch(completions, {
      method: "POST",
      headers: { ...keys.tokens, "content-type": "application/json" },
      body: JSON.stringify({ model: "xai/grok-4-fast", messages: [{ role: "user", content: "Say hello." }] }),
    });
    if (!probe.headers.get("x-ratelimit-limit-tokens")) throw new Error("the token-limited key was not limited");
    const info = (await (await fetch(`${server.url}/v1/key`, { headers: keys.levels })).json()) as {
      levels: unknown[];
    };
    if (info.levels.length !== 3) throw new Error("the team key is not limited at its user, team and organisation");
    const flatOut = (await loadCompletions(completions, keys.plain, 3)).requests.average;
    await loadCompletions(completions, keys.tokens, 2);
    await loadCompletions(completions, keys.levels, 2);
    const rate = Math.round(0.6 * flatOut);
    const rows = [];
    const added = { tokens: [] as number[], levels: [] as number[] };
    const cpu = { plain: [] as number[], tokens: [] as number[], levels: [] as number[] };
    const floor: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const { cpuUs: proxyUs } = await cpuPerRequest(proxy.pid, () =>
        loadCompletions(`${proxy.url}/v1/chat/completions`, {}, SECONDS, rate),
      );
      floor.push(proxyUs);
      const kinds = ["plain", "tokens", "levels"] as const;
      const order = kinds.map((_, i) => kinds[(i + round) % kinds.length]!);
      const us = {} as Record<(typeof kinds)[number], number>;
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
          what: { plain: "key without", tokens: "key with token limits", levels: "team key, 4 levels" }[which],
          "req/s": Math.round(result.requests.average),
          "CPU µs/req": Math.round(cpuUs),
        });
      }
      added.tokens.push(us.tokens - us.plain);
      added.levels.push(us.levels - us.plain);
    }
    console.table(rows);
    const how = `${rate} req/s, ${pinned ? "gateway on a CPU of its own" : "gateway not pinned"}`;
    const floorNote = `the floor, a minimal Node proxy: ${floor.map(Math.round).join(", ")} µs`;
    report({
      bench: "token-limits",
      measure: `gateway CPU token limits add to a relayed completion (${how})`,
      value: Math.round(median(added.tokens)),
      unit: "µs",
      target: "<= 10",
      note: `rounds ${added.tokens.map(Math.round).join(", ")} µs; without ${spread(cpu.plain, 0)} µs, with ${spread(cpu.tokens, 0)} µs a completion; ${floorNote}`,
    });
    report({
      bench: "level-limits",
      measure: `gateway CPU a team key's user, team and organisation limits (requests and tokens) add to a relayed completion (${how})`,
      value: Math.round(median(added.levels)),
      unit: "µs",
      target: "<= 10",
      note: `rounds ${added.levels.map(Math.round).join(", ")} µs; without ${spread(cpu.plain, 0)} µs, with ${spread(cpu.levels, 0)} µs a completion; ${floorNote}`,
    });
  } finally {
    fake.stop();
    proxy.stop();
    await server.stop();
    await backend.cleanup();
  }
}

/**
 * Three keys alike but for their limits, each a member's personal key for a team
 * (roomy request limits of its own, so no default binds): one with no token limits and no level over it;
 * one with token limits of its own; one whose user, team and organisation each limit requests and
 * tokens a minute and a day. No load here reaches a limit: every call is checked, counted and settled.
 */
async function benchKeys(env: Record<string, string>) {
  const cli = async (...args: string[]) => {
    const run = await runKeysCli(args, env);
    if (run.code !== 0) throw new Error(`keys ${args[0]}: ${run.stderr}`);
    return run.lines[0] as { id: string; key: string };
  };
  const tokens = ["--tokens-minute", "2000000000", "--tokens-day", "2000000000"];
  const requests = ["--minute", "100000000", "--day", "1000000000"];
  const openOrg = await cli("create-org", "--name", "Open org");
  const limitedOrg = await cli("create-org", "--name", "Limited org");
  const open = await cli("create-team", "--org", openOrg.id, "--name", "Open team");
  const limited = await cli("create-team", "--org", limitedOrg.id, "--name", "Limited team");
  await cli("set-limits", "organisation", limitedOrg.id, ...requests, ...tokens);
  const key = async (who: string, team: string, ...own: string[]) => {
    await cli("add-member", team, "--email", `${who}@example.test`);
    return (
      await cli(
        "create",
        "--name",
        who,
        "--email",
        `${who}@example.test`,
        "--team",
        team,
        ...requests,
        "--concurrency",
        "100000",
        ...own,
      )
    ).key;
  };
  const plainKey = await key("plain", open.id);
  const tokenKey = await key("tokens", open.id, ...tokens);
  const levelKey = await key("levels", limited.id);
  await cli("set-limits", "team", limited.id, ...requests, ...tokens);
  await cli("set-limits", "user", "levels@example.test", ...requests, ...tokens);
  return { plainKey, tokenKey, levelKey };
}

await main();
