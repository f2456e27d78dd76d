// What monthly budgets above the key cost a keyed model call on the CPU, in process: the guard's steps
// (BudgetTracker.track, then .refusal) and the meter's (.record, counting the call's cost into every
// budget over the key). The baseline is a key with no budget over it on a tracker that holds budgets
// (so neither step short-cuts on an empty tracker), timed in the same rounds, alternating order; the
// measured key has a budget at its user, its team and its organisation (cost, tokens and requests). The
// target is the difference, <= 10 µs, as for the levels' limits (bench/limit-levels.ts).
import type { Database } from "../lib/db/client.ts";
import { BudgetTracker } from "../lib/usage/budgets.ts";
import type { UsageEventInput } from "../lib/usage/usage-event.ts";
import { cpuPerCall, median, report, spread } from "./results.ts";

const ROUNDS = Number(process.env.BENCH_BUDGET_ROUNDS ?? 12);
const CALLS = 200_000;
const ROOMY = 1e15;

/** The tables a reload reads, as the database would give them: budgets at three levels, no usage yet. */
function database(): Database {
  const none = { findMany: async () => [], groupBy: async () => [] };
  const levelRows = [
    ["user", "user_budgeted", "cost"],
    ["team", "team_budgeted", "tokens"],
    ["organisation", "org_budgeted", "requests"],
  ].map(([level, subjectId, budgetMetric]) => ({
    level,
    subjectId,
    budgetMetric,
    monthlyLimit: ROOMY,
    budgetHardStop: true,
  }));
  const keyRows = [{ metric: "cost", monthlyLimit: ROOMY, hardStop: true, key: { id: "key_other", lineageId: null } }];
  const keys = [
    { id: "key_other", lineageId: null, userId: "user_other", teamId: null, team: null },
    {
      id: "key_budgeted",
      lineageId: null,
      userId: "user_budgeted",
      teamId: "team_budgeted",
      team: { organisationId: "org_budgeted" },
    },
  ];
  return {
    prisma: {
      modelPrice: none,
      keyBudget: { findMany: async () => keyRows },
      levelLimit: { findMany: async () => levelRows },
      user: none,
      team: { findMany: async () => [{ id: "team_budgeted", organisationId: "org_budgeted", name: "Bench" }] },
      organisation: none,
      apiKey: { findMany: async () => keys },
      usageDaily: none,
      usageDailyModel: none,
      usageDailyFeature: none,
      budgetAlert: none,
    },
  } as unknown as Database;
}

const key = (id: string, userId: string, teamId?: string) => ({ id, limitKey: id, userId, teamId });

function event(keyId: string): UsageEventInput {
  return {
    keyId,
    requestId: "req",
    method: "POST",
    route: "/v1/chat/completions",
    area: "llm",
    status: 200,
    latencyMs: 1,
    bytesIn: 100,
    bytesOut: 100,
    provider: "xai",
    model: "grok-4-fast",
    promptTokens: 1000,
    completionTokens: 30,
    at: new Date(),
  };
}

const tracker = new BudgetTracker(
  database(),
  { pending: () => [], betweenWrites: (read) => read() },
  { refreshMs: 3_600_000, deliver: async () => {}, onError: (err) => console.error(err) },
);
await tracker.refresh();
const plain = key("key_plain", "user_plain", "team_open");
const budgeted = key("key_budgeted", "user_budgeted", "team_budgeted");
const plainEvent = event(plain.id);
const budgetedEvent = event(budgeted.id);
const steps = (k: typeof plain, e: UsageEventInput) => () => {
  tracker.track(k);
  if (tracker.refusal(k.id)) throw new Error("the bench's budgets are roomy");
  tracker.record(e);
};
const runs = { plain: steps(plain, plainEvent), levels: steps(budgeted, budgetedEvent) };
runs.levels();
if (!tracker.levelStatus("team:team_budgeted")?.used || tracker.levelStatus("user:user_plain"))
  throw new Error("the bench's key does not count into its levels' budgets");
cpuPerCall(CALLS, runs.plain);
cpuPerCall(CALLS, runs.levels);
const cpu = { plain: [] as number[], levels: [] as number[] };
const added: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? (["plain", "levels"] as const) : (["levels", "plain"] as const);
  const us = {} as Record<"plain" | "levels", number>;
  for (const which of order) cpu[which].push((us[which] = cpuPerCall(CALLS, runs[which])));
  added.push(us.levels - us.plain);
}
report({
  bench: "level-budgets",
  measure: "CPU monthly budgets at a key's user, team and organisation add to a keyed call (guard check and metering)",
  value: Number(median(added).toFixed(3)),
  unit: "µs",
  target: "<= 10",
  note: `rounds ${added.map((a) => a.toFixed(2)).join(", ")} µs; a key with no budget over it ${spread(cpu.plain)} µs, one under 3 level budgets ${spread(cpu.levels)} µs a call (track, refusal, record)`,
});
