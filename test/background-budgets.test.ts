import { describe, expect, it } from "vitest";
import { runTeamCommand } from "../lib/gateway/teams/team-commands.ts";
import { FINAL_STATUSES } from "../lib/jobs/task-store.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { numberedList, startFakeResearchLlm, type FakeResearchLlm } from "./fakes/research-llm.ts";
import { useGateway } from "./support/use-gateway.ts";

// Work a key starts runs on after its request was admitted: a batch's items, research agents' model
// calls. A hard-stop budget used up part way must stop the rest, keeping what was finished.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Every model call of the fakes below reports 200 tokens. */
const CALL_TOKENS = { prompt_tokens: 120, completion_tokens: 80 };

describe("a hard-stop budget holds for work that runs after its request", () => {
  let openai: FakeLlm;
  let research: FakeResearchLlm;
  const t = useGateway({
    fakes: async () => {
      [openai, research] = await Promise.all([
        startFakeOpenAICompatible({ key: "openai-test", reply: "An answer.", usage: CALL_TOKENS }),
        startFakeResearchLlm({
          key: "xai-test",
          script: (req) => ({
            content: req.role === "breakdown" || req.role === "planner" ? numberedList(3) : `The ${req.role}'s answer.`,
            usage: CALL_TOKENS,
          }),
        }),
      ]);
      return [openai, research];
    },
    // Batches go to the openai fake, research agents to the xai one.
    env: () => ({
      OPENAI_API_KEY: "openai-test",
      UPSTREAM_OPENAI_URL: openai.url,
      XAI_API_KEY: "xai-test",
      UPSTREAM_XAI_URL: research.url,
      ANTHROPIC_API_KEY: undefined,
    }),
    key: { minute: 1000, day: 100_000, concurrency: 20 },
  });

  /** A fresh key with a hard-stop budget of `tokens` tokens this month. */
  async function budgetedKey(tokens: number) {
    const key = await t.gw.key({ minute: 1000, day: 100_000, concurrency: 20 });
    await t.gw.rt.db.prisma.keyBudget.create({
      data: { keyId: key.id, metric: "tokens", monthlyLimit: tokens, hardStop: true },
    });
    await t.gw.rt.budgets.refresh();
    return key;
  }
  const request = (secret: string, path: string, body?: unknown) =>
    t.gw.request(path, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json", "X-API-Key": secret },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** Waits for the task to end (read from the store, so the wait itself spends no request). */
  async function settled(taskId: string) {
    for (let i = 0; i < 400; i++) {
      const task = await t.gw.rt.tasks.get(taskId);
      if (task && FINAL_STATUSES.has(task.status)) break;
      await sleep(50);
    }
  }

  it("stops a batch whose first items use up the budget: budget_exceeded, the rest never sent, finished results kept", async () => {
    const key = await budgetedKey(CALL_TOKENS.prompt_tokens + CALL_TOKENS.completion_tokens);
    const sentBefore = openai.requests.length;
    const requests = Array.from({ length: 10 }, (_, i) => ({
      custom_id: `q${i}`,
      messages: [{ role: "user", content: `question ${i}` }],
    }));
    const created = await request(key.key, "/v1/llm/batch", { requests, provider: "openai" });
    expect(created.status).toBe(201);
    const { id } = await created.json();

    await settled(id);
    // The budget is used up: new work is refused, but the owner still reads what the batch finished.
    expect((await request(key.key, "/v1/llm/batch", { requests, provider: "openai" })).status).toBe(429);
    const read = await request(key.key, `/v1/llm/batch/${id}`);
    expect(read.status).toBe(200);
    expect((await request(key.key, "/v1/llm/batch")).status).toBe(200);
    const batch = await read.json();
    expect(batch.status).toBe("budget_exceeded");
    expect(batch.error).toMatch(/^monthly budget exceeded: this key.s budget of 200 tokens/);
    // The items already running when the first answer used up the budget finish; no other is sent.
    const sent = openai.requests.length - sentBefore;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(10);
    expect(batch.request_counts).toEqual({ total: 10, succeeded: sent, errored: 0, processing: 0, not_run: 10 - sent });

    const results = await request(key.key, `/v1/llm/batch/${id}/results`);
    expect(results.status).toBe(200);
    const body = await results.json();
    expect(body.status).toBe("budget_exceeded");
    expect(body.results).toHaveLength(sent);
    expect(body.results.every((r: { status: string; content: string }) => r.status === "succeeded")).toBe(true);
    // Each finished item counted into the budget as it was metered.
    expect(t.gw.rt.budgets.status(key.id)?.used).toBe(sent * 200);
  });

  it("stops a research task at the agent call the budget refuses, keeping the agents that finished", async () => {
    const key = await budgetedKey(CALL_TOKENS.prompt_tokens + CALL_TOKENS.completion_tokens);
    const sentBefore = research.requests.length;
    const started = await request(key.key, "/v1/orchestrate/dream-cascade?async=true", {
      task: "Why do tides happen?",
      num_agents: 3,
    });
    expect(started.status).toBe(202);
    const { task_id } = await started.json();

    await settled(task_id);
    const read = await request(key.key, `/v1/orchestrate/${task_id}/status`);
    expect(read.status).toBe(200);
    const task = await read.json();
    expect(task.status).toBe("budget_exceeded");
    expect(task.error).toMatch(/^monthly budget exceeded/);
    // The breakdown's 200 tokens used the budget up: no worker, synthesizer or summary was asked.
    expect(research.requests.slice(sentBefore).map((r) => r.role)).toEqual(["breakdown"]);
    expect(task.result).toMatchObject({
      agents: [{ id: "breakdown", role: "breakdown", output: numberedList(3) }],
      usage: { calls: 1, prompt_tokens: 120, completion_tokens: 80 },
    });

    // The stream closes as an error whose status names the stop, with what was done.
    const stream = await request(key.key, `/v1/orchestrate/${task_id}/stream`);
    const last = (await stream.text()).trim().split("\n\n").at(-1)!;
    expect(JSON.parse(last.slice("data: ".length))).toMatchObject({
      type: "error",
      status: "budget_exceeded",
      result: { agents: [{ id: "breakdown" }] },
    });
  });

  it("answers a research run in the request with the budget's 429 once its budget runs out part way", async () => {
    const key = await budgetedKey(CALL_TOKENS.prompt_tokens + CALL_TOKENS.completion_tokens);
    const sentBefore = research.requests.length;
    const res = await request(key.key, "/v1/swarm/hive", { task: "Why do tides happen?", depth: "quick" });
    expect(res.status).toBe(429);
    expect((await res.json()).error).toMatchObject({
      code: "rate_limit_exceeded",
      message: expect.stringMatching(/^monthly budget exceeded/),
    });
    expect(research.requests.slice(sentBefore).map((r) => r.role)).toEqual(["planner"]);
  });

  /** A key of a fresh team whose model tokens a day are limited to `tokens`. */
  async function teamKey(tokens: number) {
    const db = t.gw.rt.db;
    const tag = Math.random().toString(36).slice(2, 8);
    const org = (await runTeamCommand(db, "create-org", { name: `Tokens ${tag}` }, "test")).lines[0] as { id: string };
    const team = (await runTeamCommand(db, "create-team", { organisation: org.id, name: `Team ${tag}` }, "test"))
      .lines[0] as { id: string };
    await runTeamCommand(db, "set-limits", { level: "team", subject: team.id, tokensDay: tokens }, "test");
    await t.gw.rt.levels.refresh();
    return {
      ...(await t.gw.key({ name: `team key ${tag}`, team: team.id, minute: 1000, day: 100_000, concurrency: 20 })),
      tag,
    };
  }

  it("stops a batch at the item its team's token window does not fit, naming the team; the rest never sent", async () => {
    // Each item reserves its prompt and max_tokens (1,024): two fit 2,500, and the window refuses an item
    // before all ten run, however the four workers' reservations and settlings interleave.
    const key = await teamKey(2_500);
    const sentBefore = openai.requests.length;
    const requests = Array.from({ length: 10 }, (_, i) => ({
      custom_id: `q${i}`,
      messages: [{ role: "user", content: `question ${i}` }],
    }));
    const created = await request(key.key, "/v1/llm/batch", { requests, provider: "openai" });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    await settled(id);
    const batch = await (await request(key.key, `/v1/llm/batch/${id}`)).json();
    expect(batch.status).toBe("budget_exceeded");
    expect(batch.error).toMatch(new RegExp(`tokens per day \\(UTC\\) for team "Team ${key.tag}"`));
    const sent = openai.requests.length - sentBefore;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(10);
    expect(batch.request_counts).toMatchObject({ succeeded: sent, not_run: 10 - sent });
  });

  it("answers a research run in the request with a 429 naming its team's token window once an agent call does not fit", async () => {
    const key = await teamKey(1_500);
    const res = await request(key.key, "/v1/swarm/hive", { task: "Why do tides happen?", depth: "quick" });
    expect(res.status).toBe(429);
    expect((await res.json()).error).toMatchObject({
      code: "rate_limit_exceeded",
      message: expect.stringMatching(new RegExp(`tokens per day \\(UTC\\) for team "Team ${key.tag}"`)),
    });
  });
});
