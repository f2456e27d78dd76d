import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../lib/app.ts";
import { loadConfig } from "../lib/config.ts";
import { createKey } from "../lib/gateway/keys/key-changes.ts";
import { createRuntime, type Runtime } from "../lib/gateway/runtime/runtime.ts";
import { runTeamCommand } from "../lib/gateway/teams/team-commands.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { databaseBackends, freshPostgres, tempDir } from "./support/backends.ts";
import { serveGateway, type ServedGateway } from "./support/serve-gateway.ts";

const sharedBackends = process.env.REDIS_URL && databaseBackends.includes("postgres");

// Each call reserves 56 tokens (6 of prompt, max_tokens 50) and is metered 30 (10 + 20).
const RESERVED = 56;
const USED = 30;
const BODY = JSON.stringify({
  model: "xai/grok-4",
  messages: [{ role: "user", content: "Count me." }],
  max_tokens: 50,
});
const TEAM_TOKENS = 600;
const ORG_TOKENS = 5_000;
const TEAMS = 20;
const KEYS_PER_TEAM = 10;

/**
 * Three instances on one PostgreSQL and one Redis, 200 keys in 20 teams of two organisations, each team
 * with a token budget for the day and each organisation one over its ten teams: rounds of one call per key
 * at once, spread over the instances, until no call is admitted. No team or organisation uses more than
 * its budget (a reservation is held until settled, so what is used never passes it), and each stops
 * within one reservation of it: the check is as exact under load as on one instance.
 */
describe.runIf(sharedBackends)("token budgets of teams and organisations under load on three instances", () => {
  let drop: () => Promise<void>;
  let xai: FakeLlm;
  const instances: { rt: Runtime; app: ServedGateway }[] = [];

  beforeAll(async () => {
    xai = await startFakeOpenAICompatible({
      key: "xai-k",
      reply: "Counted.",
      usage: { prompt_tokens: 10, completion_tokens: 20 },
    });
    const pg = await freshPostgres();
    drop = pg.drop;
    const env = {
      DATABASE_URL: pg.url,
      REDIS_URL: process.env.REDIS_URL,
      LOG_LEVEL: "silent",
      // Counting must stay shared on Redis: a slow answer under load must not fall back to one instance's memory.
      LIMIT_REDIS_TIMEOUT_MS: "10000",
    };
    // Provider settings are read from the process's environment.
    Object.assign(process.env, { XAI_API_KEY: "xai-k", UPSTREAM_XAI_URL: xai.url });
    for (let i = 0; i < 3; i++) {
      const rt = await createRuntime(loadConfig({ ...env, DATA_DIR: tempDir() }));
      instances.push({ rt, app: await serveGateway(createApp(rt)) });
    }
  }, 120_000);
  afterAll(async () => {
    for (const { app, rt } of instances) {
      await app.close();
      await rt.close();
    }
    await drop?.();
    await xai?.close();
  });

  it("keeps every team and organisation within its token budget, and within one reservation of it", async () => {
    const db = instances[0]!.rt.db;
    const run = async (command: Parameters<typeof runTeamCommand>[1], input: object) =>
      (await runTeamCommand(db, command, input, "test")).lines[0] as { id: string };
    const orgs = [await run("create-org", { name: "Load A" }), await run("create-org", { name: "Load B" })];
    for (const org of orgs) await run("set-limits", { level: "organisation", subject: org.id, tokensDay: ORG_TOKENS });
    const keys: { key: string; team: number; org: number }[] = [];
    for (let t = 0; t < TEAMS; t++) {
      const org = t % 2;
      const team = await run("create-team", { organisation: orgs[org]!.id, name: `Load team ${t}` });
      await run("set-limits", { level: "team", subject: team.id, tokensDay: TEAM_TOKENS });
      for (let k = 0; k < KEYS_PER_TEAM; k++) {
        const created = await createKey(db, { name: `load ${t}.${k}`, team: team.id, concurrency: 100 }, "test");
        keys.push({ key: created.key, team: t, org });
      }
    }
    await Promise.all(instances.map(({ rt }) => rt.levels.refresh()));

    const admitted = new Array<number>(TEAMS).fill(0);
    const statuses = new Map<number, number>();
    for (let round = 0; round < 25; round++) {
      const answers = await Promise.all(
        keys.map(({ key }, i) =>
          instances[i % 3]!.app.request("/v1/chat/completions", {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: BODY,
          }),
        ),
      );
      let admittedThisRound = 0;
      answers.forEach((r, i) => {
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 200) {
          admitted[keys[i]!.team]!++;
          admittedThisRound++;
        }
      });
      await Promise.all(answers.map((r) => r.arrayBuffer()));
      if (admittedThisRound === 0) break;
    }
    // Every answer was a call or a refusal: nothing failed.
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
    const teamUsed = admitted.map((n) => n * USED);
    for (const used of teamUsed) expect(used).toBeLessThanOrEqual(TEAM_TOKENS);
    for (const org of [0, 1]) {
      const teams = teamUsed.filter((_, t) => t % 2 === org);
      const used = teams.reduce((a, b) => a + b, 0);
      expect(used).toBeLessThanOrEqual(ORG_TOKENS);
      // Stopped by the organisation within one reservation of its budget, or with every team at its own.
      const orgFull = used > ORG_TOKENS - RESERVED;
      const teamsFull = teams.every((u) => u > TEAM_TOKENS - RESERVED);
      expect(orgFull || teamsFull, `organisation ${org}: ${used} used, teams ${teams.join(", ")}`).toBe(true);
    }
  }, 300_000);
});
