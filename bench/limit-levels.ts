// What the limit steps cost a keyed model call on the CPU, in process, where a relayed completion's noise
// (hundreds of µs a round on a shared 2-core machine: bench/token-limits.ts) cannot hide a few µs: finding
// the key's levels (LevelDirectory.chainOf), admitting it (minute, day, concurrency, and every level's
// minute and day, in one store step), reserving its tokens in every token window over it, settling them
// and releasing the slot. The baseline is today's key: its own request and token limits, no level over it
// (the same steps: an admission, a reservation, its settling, a release), timed in the same rounds
// (alternating order); the target is the difference, <= 10 µs. With REDIS_URL set the Redis store runs
// too: CPU only (a round trip waits, it does not compute), and as many script calls either way: one for
// the admission and one for the reservation, whatever the number of levels.
import type { Database } from "../lib/db/client.ts";
import type { KeyRecord } from "../lib/gateway/keys/record.ts";
import { Limiter } from "../lib/gateway/runtime/limits/limiter.ts";
import { MemoryLimitStore } from "../lib/gateway/runtime/limits/memory-store.ts";
import { RedisLimitStore } from "../lib/gateway/runtime/limits/redis-store.ts";
import { ioredisScripts } from "../lib/gateway/runtime/limits/script-runners.ts";
import type { LimitStore } from "../lib/gateway/runtime/limits/windows.ts";
import { connectRedis } from "../lib/gateway/runtime/redis.ts";
import { LevelDirectory } from "../lib/gateway/teams/level-directory.ts";
import { median, report, spread } from "./results.ts";

const ROUNDS = Number(process.env.BENCH_LEVEL_ROUNDS ?? 12);
const ROOMY = 1_000_000_000;
const LIMITS = { minute: ROOMY, day: ROOMY, concurrency: ROOMY };
const BODY_TOKENS = 1_030;

/** A directory holding one organisation, two teams and a user, as the database would give them. */
async function directory(): Promise<LevelDirectory> {
  const at = new Date();
  const roomy = {
    minuteLimit: ROOMY,
    dayLimit: ROOMY,
    tokenMinuteLimit: ROOMY,
    tokenDayLimit: ROOMY,
    // No monthly budget: bench/level-budgets.ts times those.
    monthlyLimit: null,
    budgetMetric: null,
    budgetHardStop: true,
  };
  const rows = {
    organisation: [{ id: "org_1", name: "Bench org", updatedAt: at }],
    team: [
      { id: "team_open", organisationId: "org_2", name: "Open", updatedAt: at },
      { id: "team_limited", organisationId: "org_1", name: "Limited", updatedAt: at },
    ],
    levelLimit: [
      { level: "organisation", subjectId: "org_1", ...roomy, updatedAt: at },
      { level: "team", subjectId: "team_limited", ...roomy, updatedAt: at },
      { level: "user", subjectId: "user_limited", ...roomy, updatedAt: at },
    ],
  };
  const table = (name: keyof typeof rows) => ({ findMany: async () => rows[name] });
  const db = {
    prisma: { organisation: table("organisation"), team: table("team"), levelLimit: table("levelLimit") },
  } as unknown as Database;
  const levels = new LevelDirectory(db, { refreshMs: 3_600_000 });
  await levels.start();
  await levels.stop();
  return levels;
}

function key(id: string, userId: string, teamId: string, own: boolean): KeyRecord {
  return {
    ...(own && { tokenLimits: { minute: ROOMY, day: ROOMY } }),
    id,
    hash: id,
    prefix: "sk_bench",
    name: id,
    userId,
    teamId,
    kind: "client",
    scopes: [],
    overrides: { day: ROOMY, minute: ROOMY, concurrency: ROOMY },
    limitKey: id,
    replaced: false,
    status: "active",
    expiresAt: null,
    createdAt: 0,
  };
}

/** One keyed model call's limit steps, as the pipeline takes them. */
async function steps(limiter: Limiter, levels: LevelDirectory, k: KeyRecord): Promise<void> {
  const chain = levels.chainOf(k);
  const admission = await limiter.admit(k.limitKey, LIMITS, chain.requests.length ? chain.requests : undefined);
  if (chain.tokens.length) (await limiter.reserveTokens(chain.tokens, BODY_TOKENS)).settle(30);
  admission.release();
}

/** CPU µs per call of `n` calls in a row. */
async function cpuPerCall(n: number, call: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) await call();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

async function measure(store: string, make: () => LimitStore, calls: number) {
  const levels = await directory();
  const limiter = new Limiter(make());
  const plain = key("key_plain", "user_plain", "team_open", true);
  const limited = key("key_levels", "user_limited", "team_limited", false);
  if (levels.chainOf(limited).requests.length !== 3 || levels.chainOf(plain).tokens.length !== 1)
    throw new Error("the bench's keys do not have the levels they should");
  const runs = { plain: () => steps(limiter, levels, plain), levels: () => steps(limiter, levels, limited) };
  await cpuPerCall(calls, runs.plain);
  await cpuPerCall(calls, runs.levels);
  const cpu = { plain: [] as number[], levels: [] as number[] };
  const added: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? (["plain", "levels"] as const) : (["levels", "plain"] as const);
    const us = {} as Record<"plain" | "levels", number>;
    for (const which of order) cpu[which].push((us[which] = await cpuPerCall(calls, runs[which])));
    added.push(us.levels - us.plain);
  }
  await limiter.close();
  report({
    bench: `level-limits-${store}`,
    measure: `CPU a key's user, team and organisation limits (requests and tokens, ${store} store) add to the limit steps of a key with its own`,
    value: Number(median(added).toFixed(2)),
    unit: "µs",
    target: "<= 10",
    note: `rounds ${added.map((a) => a.toFixed(1)).join(", ")} µs; a key with its own limits only ${spread(cpu.plain)} µs, one under 3 levels ${spread(cpu.levels)} µs a call (find the levels, admit, reserve, settle, release)`,
  });
}

await measure("memory", () => new MemoryLimitStore(), 100_000);
if (process.env.REDIS_URL) {
  const client = connectRedis(process.env.REDIS_URL, "bench-level-limits");
  const prefix = `gw:rl:bench-${process.pid}`;
  await measure(
    "redis",
    () => new RedisLimitStore(ioredisScripts(client), prefix),
    Number(process.env.BENCH_LEVEL_REDIS_CALLS ?? 20_000),
  );
  const left = await client.keys(`${prefix}:*`);
  if (left.length) await client.del(...left);
  await client.quit();
}
