import { describe, expect, it } from "vitest";
import { estimateCost } from "../lib/usage/prices.ts";
import { startFakeAnthropic, type FakeLlm } from "./fakes/llm.ts";
import { startFakeResearchLlm, type FakeRequest, type FakeResearchLlm, type FakeTurn } from "./fakes/research-llm.ts";
import type { TestGateway } from "./support/gateway.ts";
import { useGateway } from "./support/use-gateway.ts";

// /metrics counts what costs money wherever a model call is made: a request, a research agent's call,
// a batch item; and a provider's features billed beyond tokens.

type Sample = { name: string; labels: Record<string, string>; value: number };

/** /metrics as samples: each line's series name, labels and value. */
async function scrape(gw: TestGateway): Promise<Sample[]> {
  const text = await (await gw.request("/metrics")).text();
  return text
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((line) => {
      const m = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line)!;
      const labels = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1]!, l[2]!]));
      return { name: m[1]!, labels, value: Number(m[3]) };
    });
}

/** The sum of the samples of `name` whose labels include `labels`. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("/metrics counts the tokens and cost of every keyed model call", () => {
  let xai: FakeResearchLlm;
  let anthropic: FakeLlm;
  // Workers answer at once without calling a tool (no data source is faked here), unless held.
  let holdWorkers = false;
  const script = (req: FakeRequest): FakeTurn | undefined =>
    req.role === "worker" ? { content: "Findings.", ...(holdWorkers && { delayMs: 20_000 }) } : undefined;
  const t = useGateway({
    fakes: async () => {
      xai = await startFakeResearchLlm({ key: "xai-k", script });
      anthropic = await startFakeAnthropic({
        key: "an-k",
        reply: "Found it.",
        serverToolUse: { web_search_requests: 2 },
      });
      return [xai, anthropic] as [FakeResearchLlm, FakeLlm];
    },
    env: () => ({
      XAI_API_KEY: "xai-k",
      UPSTREAM_XAI_URL: xai.url,
      ANTHROPIC_API_KEY: "an-k",
      UPSTREAM_ANTHROPIC_URL: anthropic.url,
    }),
    config: { LLM_PASSTHROUGH_FEATURES: "web_search", METRICS_PER_KEY: "true" },
    key: { minute: 1000, day: 100_000, concurrency: 20 },
  });

  it("a research run's agent calls: their tokens and cost, under the endpoint that started them", async () => {
    const before = await scrape(t.gw);
    const res = await t.post("/v1/orchestrate/dream-cascade", { task: "History of computing", num_agents: 1 });
    expect(res.status).toBe(200);
    const { usage } = (await res.json()) as {
      usage: { prompt_tokens: number; completion_tokens: number; estimated_cost_usd: number };
    };
    const after = await scrape(t.gw);
    const added = (name: string, labels: Record<string, string> = {}) =>
      total(after, name, { provider: "xai", ...labels }) - total(before, name, { provider: "xai", ...labels });
    expect(added("gateway_llm_tokens_total", { direction: "input" })).toBe(usage.prompt_tokens);
    expect(added("gateway_llm_tokens_total", { direction: "output" })).toBe(usage.completion_tokens);
    // Each tier's model at its price (the run's own estimate is rounded to the micro-dollar).
    const models = new Set(after.filter((s) => s.name === "gateway_llm_tokens_total").map((s) => s.labels.model!));
    const priced = [...models].reduce((usd, model) => {
      const tokens = (direction: string) => added("gateway_llm_tokens_total", { model, direction });
      return usd + (estimateCost("xai", model, tokens("input"), tokens("output")) ?? 0);
    }, 0);
    expect(priced).toBeCloseTo(usage.estimated_cost_usd, 5);
    expect(added("gateway_llm_cost_usd_total")).toBeCloseTo(priced, 12);
    expect(
      added("gateway_llm_requests_total", { route: "/v1/orchestrate/dream-cascade", status_class: "2xx" }),
    ).toBeGreaterThanOrEqual(3);
  });

  it("a batch's items: their tokens and cost, under the batch item route", async () => {
    const before = await scrape(t.gw);
    const requests = ["a", "b"].map((id) => ({ custom_id: id, messages: [{ role: "user", content: `q ${id}` }] }));
    const created = await t.post("/v1/llm/batch", { requests, model: "grok-4" });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    let status = "";
    for (let i = 0; i < 200 && status !== "processing_complete"; i++, await sleep(50))
      status = ((await (await t.get(`/v1/llm/batch/${id}`)).json()) as { status: string }).status;
    expect(status).toBe("processing_complete");
    const { results } = (await (await t.get(`/v1/llm/batch/${id}/results`)).json()) as {
      results: { usage: { prompt_tokens: number; completion_tokens: number } }[];
    };
    const prompt = results.reduce((n, r) => n + r.usage.prompt_tokens, 0);
    const completion = results.reduce((n, r) => n + r.usage.completion_tokens, 0);
    const after = await scrape(t.gw);
    const series = { provider: "xai", model: "grok-4" };
    const added = (name: string, labels: Record<string, string> = {}) =>
      total(after, name, { ...series, ...labels }) - total(before, name, { ...series, ...labels });
    expect(added("gateway_llm_tokens_total", { direction: "input" })).toBe(prompt);
    expect(added("gateway_llm_tokens_total", { direction: "output" })).toBe(completion);
    expect(added("gateway_llm_cost_usd_total")).toBeCloseTo(estimateCost("xai", "grok-4", prompt, completion)!, 12);
    expect(added("gateway_llm_requests_total", { route: "/v1/llm/batch#item", status_class: "2xx" })).toBe(2);
    // The batch's task: its run's duration, by kind and outcome.
    const batches = { kind: "llm.batch", outcome: "completed" };
    expect(
      total(after, "gateway_task_duration_seconds_count", batches) -
        total(before, "gateway_task_duration_seconds_count", batches),
    ).toBe(1);
  });

  it("a provider's web searches add their price to the cost, as the key's budget counts them", async () => {
    const series = { provider: "anthropic", model: "claude-sonnet-4-5" };
    const before = total(await scrape(t.gw), "gateway_llm_cost_usd_total", series);
    const res = await t.post("/v1/messages", {
      model: "anthropic/claude-sonnet-4-5",
      max_tokens: 100,
      messages: [{ role: "user", content: "news?" }],
      tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 3 }],
    });
    expect(res.status).toBe(200);
    const { usage } = (await res.json()) as { usage: { input_tokens: number; output_tokens: number } };
    const added = total(await scrape(t.gw), "gateway_llm_cost_usd_total", series) - before;
    // Tokens at the model's price, and $10 per 1,000 searches.
    const tokens = estimateCost("anthropic", "claude-sonnet-4-5", usage.input_tokens, usage.output_tokens)!;
    expect(added).toBeCloseTo(tokens + 2 * 0.01, 12);
  });

  it("a running research task is in the queue gauge while it runs, and its duration is counted as cancelled", async () => {
    const depth = async (state: string) =>
      total(await scrape(t.gw), "gateway_task_queue_depth", { queue: "in-process", state });
    const cancelled = async () =>
      total(await scrape(t.gw), "gateway_task_duration_seconds_count", { kind: "dream-cascade", outcome: "cancelled" });
    expect(await depth("active")).toBe(0);
    expect(
      (await scrape(t.gw)).some((s) => s.name === "gateway_task_queue_depth" && s.labels.state === "waiting"),
    ).toBe(true);
    const before = await cancelled();
    holdWorkers = true;
    try {
      const created = await t.post("/v1/orchestrate/dream-cascade?async=true", { task: "Long task", num_agents: 1 });
      expect(created.status).toBe(202);
      const { task_id } = (await created.json()) as { task_id: string };
      await expect.poll(() => depth("active"), { timeout: 10_000 }).toBe(1);
      const cancel = await t.gw.request(`/v1/orchestrate/${task_id}`, {
        method: "DELETE",
        headers: { "X-API-Key": t.key },
      });
      expect(cancel.status).toBe(200);
      await expect.poll(cancelled, { timeout: 10_000 }).toBe(before + 1);
      expect(await depth("active")).toBe(0);
    } finally {
      holdWorkers = false;
    }
  });

  it("with METRICS_PER_KEY, what each budgeted key has left this month, lowered by its calls as they are metered", async () => {
    const key = await t.gw.key();
    await t.gw.rt.db.prisma.keyBudget.create({
      data: { keyId: key.id, metric: "tokens", monthlyLimit: 100_000, hardStop: true },
    });
    await t.gw.rt.budgets.refresh();
    const remaining = async () =>
      (await scrape(t.gw)).filter((s) => s.name === "gateway_budget_remaining" && s.labels.key === key.id);
    expect(await remaining()).toEqual([
      { name: "gateway_budget_remaining", labels: { key: key.id, metric: "tokens" }, value: 100_000 },
    ]);
    const res = await t.gw.request("/v1/messages", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key.key },
      body: JSON.stringify({
        model: "anthropic/claude-sonnet-4-5",
        max_tokens: 50,
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(res.status).toBe(200);
    const { usage } = (await res.json()) as { usage: { input_tokens: number; output_tokens: number } };
    expect((await remaining())[0]?.value).toBe(100_000 - usage.input_tokens - usage.output_tokens);
    // Keys without a budget have no series.
    expect((await scrape(t.gw)).some((s) => s.name === "gateway_budget_remaining" && s.labels.key === t.keyId)).toBe(
      false,
    );
  });
});

describe("/metrics without METRICS_PER_KEY: no series labelled by key", () => {
  const t = useGateway();

  it("shows no budget's remaining amount even when keys have budgets", async () => {
    await t.gw.rt.db.prisma.keyBudget.create({
      data: { keyId: t.keyId, metric: "requests", monthlyLimit: 10, hardStop: true },
    });
    await t.gw.rt.budgets.refresh();
    expect(t.gw.rt.budgets.status(t.keyId)?.budget.limit).toBe(10);
    const samples = await scrape(t.gw);
    expect(samples.some((s) => s.name === "gateway_budget_remaining")).toBe(false);
    expect(samples.some((s) => "key" in s.labels)).toBe(false);
  });
});
