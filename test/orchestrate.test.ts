import { describe, expect, it } from "vitest";
import {
  startFakeArxiv,
  startFakeGithub,
  startFakeNasa,
  startFakeSemanticScholar,
  startFakeWikipedia,
  type FakeSource,
} from "./fakes/data-sources.ts";
import { startFakeResearchLlm, type FakeRequest, type FakeResearchLlm, type FakeTurn } from "./fakes/research-llm.ts";
import { useGateway } from "./support/use-gateway.ts";

type Message = Record<string, unknown> & { type: string; status: string; task_id: string };

/** Reads an SSE body to its end (or `max` messages), each `data:` line parsed. */
async function readStream(res: Response, max = 500): Promise<Message[]> {
  const messages: Message[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  while (messages.length < max) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const chunk = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (chunk.startsWith("data: ")) messages.push(JSON.parse(chunk.slice(6)));
    }
  }
  await reader.cancel().catch(() => {});
  return messages;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("/v1/orchestrate and /v1/swarm: research agents over the fake provider and fake data sources", () => {
  let script: ((req: FakeRequest) => FakeTurn | undefined) | undefined;
  let llm: FakeResearchLlm;
  const t = useGateway({
    fakes: async () => {
      llm = await startFakeResearchLlm({ key: "xai-test", script: (req) => script?.(req) });
      return Promise.all([
        startFakeWikipedia(),
        startFakeArxiv(),
        startFakeSemanticScholar(),
        startFakeGithub(),
        startFakeNasa(),
        llm,
      ]) as Promise<[FakeSource, FakeSource, FakeSource, FakeSource, FakeSource, FakeResearchLlm]>;
    },
    env: ([wiki, arxiv, scholar, github, nasa]) => ({
      XAI_API_KEY: "xai-test",
      UPSTREAM_XAI_URL: llm.url,
      UPSTREAM_WIKIPEDIA_URL: wiki.url,
      UPSTREAM_ARXIV_URL: arxiv.url,
      UPSTREAM_SEMANTIC_SCHOLAR_URL: scholar.url,
      UPSTREAM_GITHUB_URL: github.url,
      UPSTREAM_NASA_URL: nasa.url,
      NEWS_API_KEY: undefined,
      ANTHROPIC_API_KEY: undefined,
    }),
    // Agents go through the model router: the tests that fail every worker on purpose must not open
    // xai's breakers for the tests after them.
    config: { TASKS_ACTIVE_PER_KEY: "3", GATEWAY_BREAKER_THRESHOLD: "1000" },
    key: { minute: 1000, day: 100_000, concurrency: 20 },
  });
  const del = (path: string, key = t.key) => t.gw.request(path, { method: "DELETE", headers: { "X-API-Key": key } });
  const since = () => {
    const from = llm.requests.length;
    return () => llm.requests.slice(from);
  };
  async function waitFor(taskId: string, statuses: string[], key = t.key) {
    for (let i = 0; i < 200; i++) {
      const res = await t.gw.request(`/v1/orchestrate/${taskId}/status`, { headers: { "X-API-Key": key } });
      const body = await res.json();
      if (statuses.includes(body.status)) return body;
      await sleep(50);
    }
    throw new Error(`task ${taskId} never reached ${statuses.join("/")}`);
  }

  it("runs an 8-agent cascade synchronously: subtasks, workers with tools, 2 syntheses, a summary, tiers routed", async () => {
    script = undefined;
    const sent = since();
    const res = await t.post("/v1/orchestrate/dream-cascade", { task: "History of computing", num_agents: 8 });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      kind: "dream-cascade",
      task: "History of computing",
      provider: "xai",
      budget_tier: "balanced",
      models: { worker: "grok-3-mini", synthesizer: "grok-4-fast", summary: "grok-4" },
    });
    expect(body.subtasks).toHaveLength(8);
    expect(body.agents).toHaveLength(8);
    expect(body.agents.every((a: { status: string }) => a.status === "completed")).toBe(true);
    expect(body.agents[0].tool_calls[0]).toMatchObject({ tool: "wikipedia_search", ok: true });
    expect(body.syntheses).toHaveLength(2);
    expect(body.syntheses[0].agents).toHaveLength(5);
    expect(body.executive_summary).toBe("The summary's answer.");
    expect(body.sources.some((s: { title: string }) => s.title === "Ada Lovelace")).toBe(true);
    expect(body.failures).toEqual([]);
    expect(body.usage.by_tier.cheap.calls).toBeGreaterThanOrEqual(8);
    expect(body.usage.total_tokens).toBeGreaterThan(0);
    expect(body.usage.estimated_cost_usd).toBeGreaterThan(0);
    expect(body.timings.duration_ms).toBeGreaterThanOrEqual(0);

    // Each role's requests went to its tier's model.
    const byRole = (role: string) =>
      new Set(
        sent()
          .filter((r) => r.role === role)
          .map((r) => r.model),
      );
    expect(byRole("worker")).toEqual(new Set(["grok-3-mini"]));
    expect(byRole("synthesizer")).toEqual(new Set(["grok-4-fast"]));
    expect(byRole("summary")).toEqual(new Set(["grok-4"]));

    // Every model call is metered to the key, with its tokens.
    await t.gw.rt.meter.flush();
    const agentEvents = await t.gw.rt.db.prisma.usageEvent.findMany({
      where: { keyId: t.keyId, route: "/v1/orchestrate/dream-cascade", method: "AGENT" },
    });
    expect(agentEvents.length).toBe(1 + 8 + 2 + 1);
    expect(agentEvents.every((e) => (e.promptTokens ?? 0) > 0 && e.area === "orchestrate")).toBe(true);
  });

  it("shifts every tier up for budget_tier premium and down for cheap", async () => {
    script = undefined;
    let sent = since();
    const premium = await t.post("/v1/orchestrate/dream-cascade", {
      task: "x",
      num_agents: 1,
      budget_tier: "premium",
    });
    expect((await premium.json()).models).toEqual({ worker: "grok-4-fast", synthesizer: "grok-4", summary: "grok-4" });
    expect(
      new Set(
        sent()
          .filter((r) => r.role === "worker")
          .map((r) => r.model),
      ),
    ).toEqual(new Set(["grok-4-fast"]));
    sent = since();
    const cheap = await t.post("/v1/orchestrate/dream-cascade", { task: "x", num_agents: 1, budget_tier: "cheap" });
    expect((await cheap.json()).models).toEqual({
      worker: "grok-3-mini",
      synthesizer: "grok-3-mini",
      summary: "grok-4-fast",
    });
  });

  it("degrades gracefully when some workers fail, and fails clearly when all do", async () => {
    script = (req) => (req.role === "worker" && /Subtask 2\b/.test(req.prompt) ? { status: 500 } : undefined);
    const partial = await (await t.post("/v1/orchestrate/dream-cascade", { task: "x", num_agents: 3 })).json();
    expect(partial.failures).toEqual([expect.objectContaining({ agent: "worker-2" })]);
    expect(partial.agents.find((a: { id: string }) => a.id === "worker-2").status).toBe("failed");
    expect(partial.executive_summary).toBeTruthy();

    script = (req) => (req.role === "worker" ? { status: 500 } : undefined);
    const all = await t.post("/v1/orchestrate/dream-cascade", { task: "x", num_agents: 2 });
    expect(all.status).toBe(502);
    expect((await all.json()).error).toMatch(/all 2 worker agents failed/);
  });

  it("runs async: 202 with a research_ id, status until completed, and a stream that replays events in order", async () => {
    script = (req) => (req.role === "worker" ? { ...defaultOr(req), delayMs: 150 } : undefined);
    const res = await t.post("/v1/orchestrate/dream-cascade?async=true", { task: "Async topic", num_agents: 3 });
    expect(res.status).toBe(202);
    const accepted = await res.json();
    expect(accepted).toEqual({ task_id: expect.stringMatching(/^research_[0-9a-f]{12}$/), status: "pending" });

    const stream = await t.get(`/v1/orchestrate/${accepted.task_id}/stream`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/text\/event-stream/);
    const messages = await readStream(stream);
    const types = messages.map((m) => m.type);
    expect(messages.every((m) => m.task_id === accepted.task_id)).toBe(true);
    expect(types.at(-1)).toBe("complete");
    expect(messages.at(-1)).toMatchObject({ status: "completed", result: { kind: "dream-cascade" } });
    const first = (type: string, id?: string) =>
      messages.findIndex((m) => m.type === type && (!id || (m.agent as { id: string })?.id === id));
    expect(first("subtasks_ready")).toBeGreaterThanOrEqual(0);
    expect(first("subtasks_ready")).toBeLessThan(first("agent_start", "worker-1"));
    expect(first("agent_start", "worker-1")).toBeLessThan(first("agent_complete", "worker-1"));
    expect(first("agent_complete", "worker-3")).toBeLessThan(first("synthesis_complete"));
    expect(first("synthesis_complete")).toBeLessThan(first("summary_complete"));
    expect(first("summary_complete")).toBeLessThan(types.length - 1);

    const status = await waitFor(accepted.task_id, ["completed"]);
    expect(status).toMatchObject({ task_id: accepted.task_id, status: "completed", progress: 1 });
    expect(status.result.agents).toHaveLength(3);
    expect(status.usage.calls).toBeGreaterThan(0);

    // Read again after the end: every event replayed, then the result.
    const replay = await readStream(await t.get(`/v1/orchestrate/${accepted.task_id}/stream`));
    expect(replay.map((m) => m.type)).toEqual(types.filter((type) => type !== "status"));
  });

  it("sends a status message at least every 2 s while agents are busy", async () => {
    script = (req) => (req.role === "searcher" ? { ...defaultOr(req), delayMs: 4500 } : undefined);
    const { task_id } = await (
      await t.post("/v1/orchestrate/dream-swarm?async=true", { query: "q", num_agents: 1 })
    ).json();
    expect(task_id).toMatch(/^swarm_[0-9a-f]{12}$/);
    const started = Date.now();
    const res = await t.get(`/v1/orchestrate/${task_id}/stream`);
    const messages = await readStream(res);
    const statusCount = messages.filter((m) => m.type === "status").length;
    expect(messages.at(-1)?.type).toBe("complete");
    // ~4.5 s of a busy searcher: a status at the start and at least one every 2 s after.
    expect(statusCount).toBeGreaterThanOrEqual(Math.floor((Date.now() - started) / 2000));
  }, 20_000);

  it("cancels a running task: in-flight calls aborted upstream, status cancelled, no more spend", async () => {
    script = (req) => (req.role === "worker" ? { ...defaultOr(req), delayMs: 20_000 } : undefined);
    const abortedBefore = llm.aborted();
    const sent = since();
    const { task_id } = await (
      await t.post("/v1/orchestrate/dream-cascade?async=true", { task: "Long task", num_agents: 2 })
    ).json();
    const stream = t.get(`/v1/orchestrate/${task_id}/stream`).then((r) => readStream(r));
    // Both workers' calls are in flight (each held 20 s by the fake) when the task is cancelled.
    await expect.poll(() => sent().filter((r) => r.role === "worker").length, { timeout: 5000 }).toBe(2);
    const cancel = await del(`/v1/orchestrate/${task_id}`);
    expect(cancel.status).toBe(200);
    expect(await cancel.json()).toEqual({ task_id, status: "cancelled", message: "Cancelled" });

    await expect.poll(() => llm.aborted() - abortedBefore, { timeout: 5000 }).toBeGreaterThan(0);
    const messages = await stream;
    expect(messages.at(-1)).toMatchObject({ type: "cancelled", status: "cancelled", error: "Cancelled" });
    const status = await waitFor(task_id, ["cancelled"]);
    expect(status).toMatchObject({ status: "cancelled", error: "Cancelled", result: null });
    const calls = llm.requests.length;
    await sleep(300);
    expect(llm.requests.length).toBe(calls);

    // Cancelling again says it already ended.
    expect(await (await del(`/v1/orchestrate/${task_id}`)).json()).toMatchObject({ status: "cancelled" });
  });

  it("a task's stream holds the key's concurrency slot until the reader leaves, and is metered then", async () => {
    script = (req) => (req.role === "worker" ? { ...defaultOr(req), delayMs: 20_000 } : undefined);
    const { key, id } = await t.gw.key({ name: "one at a time", minute: 1000, concurrency: 1 });
    const headers = { "X-API-Key": key };
    const accepted = await t.gw.request("/v1/orchestrate/dream-cascade?async=true", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ task: "Long task", num_agents: 1 }),
    });
    const { task_id } = await accepted.json();
    const reading = new AbortController();
    const stream = await t.gw.request(`/v1/orchestrate/${task_id}/stream`, { headers, signal: reading.signal });
    expect(stream.status).toBe(200);
    await stream.body!.getReader().read();
    const status = () => t.gw.request(`/v1/orchestrate/${task_id}/status`, { headers });
    expect((await status()).status).toBe(429);

    reading.abort();
    await expect.poll(async () => (await status()).status, { timeout: 5000 }).toBe(200);
    await t.gw.rt.meter.flush();
    const streamed = await t.gw.rt.db.prisma.usageEvent.findMany({
      where: { keyId: id, route: "/v1/orchestrate/:task_id/stream" },
    });
    expect(streamed.map((e) => e.status)).toEqual([200]);
    expect((await del(`/v1/orchestrate/${task_id}`, key)).status).toBe(200);
  });

  it("answers 404 for another key's task and for unknown ids, on status, stream and cancel", async () => {
    script = undefined;
    const { task_id } = await (
      await t.post("/v1/orchestrate/dream-swarm?async=true", { query: "q", num_agents: 1 })
    ).json();
    const other = (await t.gw.key({ name: "other", minute: 1000 })).key;
    for (const path of [`/v1/orchestrate/${task_id}/status`, `/v1/orchestrate/${task_id}/stream`]) {
      const res = await t.gw.request(path, { headers: { "X-API-Key": other } });
      expect(res.status, path).toBe(404);
      expect((await res.json()).error).toMatch(/no research task/);
    }
    expect((await del(`/v1/orchestrate/${task_id}`, other)).status).toBe(404);
    expect((await t.get("/v1/orchestrate/research_000000000000/status")).status).toBe(404);
    await waitFor(task_id, ["completed", "failed"]);
  });

  it("runs a 5-agent swarm, sync and async, with typed searchers and one merged answer", async () => {
    script = undefined;
    const res = await t.post("/v1/orchestrate/dream-swarm", { query: "transformers", num_agents: 5 });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ kind: "dream-swarm", query: "transformers", answer: "The merger's answer." });
    expect(body.agents.map((a: { type: string }) => a.type)).toEqual([
      "academic",
      "news",
      "technical",
      "general",
      "science",
    ]);
    // news needs NEWS_API_KEY, unset here: that searcher fails, the rest answer.
    expect(body.failures.map((f: { agent: string }) => f.agent)).toEqual(["searcher-2"]);
    expect(body.sources.length).toBeGreaterThan(0);

    const { task_id } = await (
      await t.post("/v1/orchestrate/dream-swarm?async=true", { query: "transformers", num_agents: 5 })
    ).json();
    const done = await waitFor(task_id, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(done.result.agents).toHaveLength(5);
  });

  it("caps a key at 3 research tasks pending or running (429 Form B), and frees a slot on cancel", async () => {
    script = (req) => (req.role === "worker" ? { ...defaultOr(req), delayMs: 20_000 } : undefined);
    const key = (await t.gw.key({ name: "capped", minute: 1000 })).key;
    const start = () =>
      t.gw.request("/v1/orchestrate/dream-cascade?async=true", {
        method: "POST",
        headers: { "content-type": "application/json", "X-API-Key": key },
        body: JSON.stringify({ task: "slow", num_agents: 1 }),
      });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await start();
      expect(res.status).toBe(202);
      ids.push((await res.json()).task_id);
    }
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      error: { code: "rate_limit_exceeded", retry_after: expect.any(Number) },
    });
    await del(`/v1/orchestrate/${ids[0]}`, key);
    expect((await start()).status).toBe(202);
    for (const id of ids) await del(`/v1/orchestrate/${id}`, key);
  });

  it("validates input: 400 naming the field, unknown provider 400, unconfigured provider 503", async () => {
    const missing = await t.post("/v1/orchestrate/dream-cascade", { num_agents: 2 });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toMatch(/task/);
    const many = await t.post("/v1/orchestrate/dream-swarm", { query: "q", num_agents: 500 });
    expect(many.status).toBe(400);
    expect((await many.json()).error).toMatch(/num_agents/);
    const unknown = await t.post("/v1/orchestrate/dream-cascade?async=true", { task: "x", provider_name: "nope" });
    expect(unknown.status).toBe(400);
    const unconfigured = await t.post("/v1/orchestrate/dream-cascade?async=true", {
      task: "x",
      provider_name: "anthropic",
    });
    expect(unconfigured.status).toBe(503);
    expect((await unconfigured.json()).error).toMatch(/ANTHROPIC_API_KEY/);
    expect((await t.post("/v1/orchestrate/dream-cascade", { task: "x" }, false)).status).toBe(401);
  });

  it("swarm: index and health without a key, chat with restricted tools, hive by depth", async () => {
    script = undefined;
    const index = await t.get("/v1/swarm/", false);
    expect(index.status).toBe(200);
    expect(await index.json()).toMatchObject({ name: "swarm", endpoints: expect.any(Object) });
    const health = await (await t.get("/v1/swarm/health", false)).json();
    expect(health).toEqual({ status: "ok", mode: "in-process", message: expect.any(String) });

    const sent = since();
    const chat = await t.post("/v1/swarm/chat", { prompt: "Who was Ada Lovelace?", tools: ["wikipedia_search"] });
    expect(chat.status).toBe(200);
    const answer = await chat.json();
    expect(answer.tool_calls).toEqual([expect.objectContaining({ tool: "wikipedia_search", ok: true })]);
    expect(answer.answer).toMatch(/Ada Lovelace/);
    const chatCalls = sent().filter((r) => r.role === "chat");
    expect(chatCalls.map((r) => r.body.tools?.map((tool) => tool.function.name))).toEqual([
      ["wikipedia_search"],
      ["wikipedia_search"],
    ]);
    const bad = await t.post("/v1/swarm/chat", { prompt: "x", tools: ["no_such_tool"] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/no_such_tool/);

    const hive = await t.post("/v1/swarm/hive", { task: "Explain transformers", depth: "quick" });
    expect(hive.status).toBe(200);
    const h = await hive.json();
    expect(h.plan).toHaveLength(2);
    expect(h.steps).toHaveLength(2);
    expect(h.answer).toBeTruthy();
  });
});

/** The fake's default turn for a request (a delay can be added on top). */
function defaultOr(req: FakeRequest): FakeTurn {
  if (req.body.tools?.length && !req.toolResults.length && req.body.tool_choice !== "none")
    return { toolCalls: [{ name: "wikipedia_search", arguments: { query: "Ada Lovelace", limit: 2 } }] };
  return { content: `Findings of the ${req.role}.` };
}

describe("/v1/orchestrate: a run past TASK_TIMEOUT_MS", () => {
  let llm: FakeResearchLlm;
  const t = useGateway({
    fakes: async () => [
      (llm = await startFakeResearchLlm({
        key: "xai-test",
        script: (req) => (req.role === "worker" ? { content: "late", delayMs: 30_000 } : undefined),
      })),
    ],
    env: () => ({ XAI_API_KEY: "xai-test", UPSTREAM_XAI_URL: llm.url }),
    config: { TASK_TIMEOUT_MS: "1500" },
    key: { minute: 1000 },
  });

  it("fails an async task with 'timed out' and aborts its calls; a sync run answers 504", async () => {
    const before = llm.aborted();
    const { task_id } = await (
      await t.post("/v1/orchestrate/dream-cascade?async=true", { task: "x", num_agents: 1 })
    ).json();
    const messages = await readStream(await t.get(`/v1/orchestrate/${task_id}/stream`));
    expect(messages.at(-1)).toMatchObject({ type: "error", status: "failed", error: "timed out after 2 s" });
    await expect.poll(() => llm.aborted() - before, { timeout: 5000 }).toBeGreaterThan(0);

    const sync = await t.post("/v1/orchestrate/dream-cascade", { task: "x", num_agents: 1 });
    expect(sync.status).toBe(504);
    expect((await sync.json()).error).toMatch(/longer than 2 s/);
  });
});
