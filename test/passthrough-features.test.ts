import { describe, expect, it } from "vitest";
import { estimateCost } from "../lib/usage/prices.ts";
import { startFakeAnthropic, startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { useGateway } from "./support/use-gateway.ts";

// What passes through the compatible surfaces to a provider as sent and costs beyond tokens: Anthropic's
// server tools and betas on /v1/messages, OpenAI's service tiers on /v1/chat/completions and /v1/responses.
// Refused unless the operator lists it (LLM_PASSTHROUGH_FEATURES); metered when it is.

const hello = [{ role: "user", content: "What happened in the news today?" }];
const webSearch = { type: "web_search_20250305", name: "web_search", max_uses: 3 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The two fakes, and the gateway's provider settings pointing at them. */
function fakes(state: { anthropic?: FakeLlm; openai?: FakeLlm }) {
  return {
    fakes: async () => {
      state.anthropic = await startFakeAnthropic({
        key: "an-k",
        reply: "Here is what I found.",
        serverToolUse: { web_search_requests: 2 },
      });
      state.openai = await startFakeOpenAICompatible({ key: "oa-k", reply: "Fast answer." });
      return [state.anthropic, state.openai];
    },
    env: () => ({
      ANTHROPIC_API_KEY: "an-k",
      UPSTREAM_ANTHROPIC_URL: state.anthropic!.url,
      OPENAI_API_KEY: "oa-k",
      UPSTREAM_OPENAI_URL: state.openai!.url,
    }),
  };
}

describe("pass-through features by default: refused with 400 in the surface's shape, nothing sent", () => {
  const up: { anthropic?: FakeLlm; openai?: FakeLlm } = {};
  const t = useGateway(fakes(up));
  const messages = (body: unknown, beta?: string) =>
    t.gw.request("/v1/messages", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": t.key, ...(beta && { "anthropic-beta": beta }) },
      body: JSON.stringify(body),
    });

  it("refuses Anthropic's web search server tool on /v1/messages", async () => {
    const before = up.anthropic!.requests.length;
    const res = await messages({
      model: "anthropic/claude-sonnet-4-5",
      max_tokens: 100,
      messages: hello,
      tools: [webSearch],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      type: "error",
      error: {
        type: "invalid_request_error",
        message: expect.stringMatching(/^web_search costs beyond tokens and is not enabled.*LLM_PASSTHROUGH_FEATURES/),
      },
    });
    expect(up.anthropic!.requests.length).toBe(before);
  });

  it("refuses a beta that switches on billed features, and passes one that bills only tokens", async () => {
    const before = up.anthropic!.requests.length;
    const body = { model: "anthropic/claude-sonnet-4-5", max_tokens: 100, messages: hello };
    const refused = await messages(body, "interleaved-thinking-2025-05-14, code-execution-2025-05-22");
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toMatch(/^anthropic-beta:code-execution costs beyond tokens/);
    expect(up.anthropic!.requests.length).toBe(before);
    expect((await messages(body, "not a flag")).status).toBe(400);

    const free = await messages(body, "interleaved-thinking-2025-05-14");
    expect(free.status).toBe(200);
    expect(up.anthropic!.requests.at(-1)!.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");
  });

  it("refuses service_tier priority on /v1/chat/completions and flex on /v1/responses; auto and default pass", async () => {
    const before = up.openai!.requests.length;
    const chat = await t.post("/v1/chat/completions", {
      model: "openai/gpt-4.1-mini",
      messages: hello,
      service_tier: "priority",
    });
    expect(chat.status).toBe(400);
    expect((await chat.json()).error).toMatchObject({
      type: "invalid_request_error",
      message: expect.stringMatching(/^service_tier:priority costs beyond tokens.*LLM_PASSTHROUGH_FEATURES/),
    });
    const responses = await t.post("/v1/responses", {
      model: "openai/gpt-4.1-mini",
      input: "hi",
      service_tier: "flex",
    });
    expect(responses.status).toBe(400);
    expect((await responses.json()).error.message).toMatch(/^service_tier:flex costs beyond tokens/);
    expect(up.openai!.requests.length).toBe(before);

    for (const service_tier of ["auto", "default"]) {
      const ok = await t.post("/v1/chat/completions", { model: "openai/gpt-4.1-mini", messages: hello, service_tier });
      expect(ok.status, service_tier).toBe(200);
    }
  });
});

describe("pass-through features the operator lists: sent, and their use metered and priced", () => {
  const up: { anthropic?: FakeLlm; openai?: FakeLlm } = {};
  const t = useGateway({ ...fakes(up), config: { LLM_PASSTHROUGH_FEATURES: "web_search, service_tier:priority" } });

  /** A fresh key with a cost budget (alerts only), so its estimated spend is tracked. */
  async function costKey() {
    const key = await t.gw.key();
    await t.gw.rt.db.prisma.keyBudget.create({
      data: { keyId: key.id, metric: "cost", monthlyLimit: 50, hardStop: false },
    });
    await t.gw.rt.budgets.refresh();
    return key;
  }
  const post = (key: string, path: string, body: unknown) =>
    t.gw.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(body),
    });
  async function usedReaches(keyId: string, expected: number) {
    for (let i = 0; i < 100 && !((t.gw.rt.budgets.status(keyId)?.used ?? 0) >= expected - 1e-12); i++) await sleep(20);
    return t.gw.rt.budgets.status(keyId)?.used;
  }
  const features = (keyId: string) =>
    t.gw.rt.db.prisma.usageDailyFeature.findMany({ where: { keyId }, orderBy: { feature: "asc" } });

  it("sends the web search tool to Anthropic and meters its searches into the key's cost, streamed or not", async () => {
    const key = await costKey();
    const body = { model: "anthropic/claude-sonnet-4-5", max_tokens: 100, messages: hello, tools: [webSearch] };
    const res = await post(key.key, "/v1/messages", body);
    expect(res.status).toBe(200);
    expect(up.anthropic!.requests.at(-1)!.body.tools).toEqual([webSearch]);
    const { usage } = await res.json();
    expect(usage.server_tool_use).toEqual({ web_search_requests: 2 });
    // Tokens at the model's price, and $10 per 1,000 searches.
    const once = estimateCost("anthropic", "claude-sonnet-4-5", usage.input_tokens, usage.output_tokens)! + 2 * 0.01;
    expect(await usedReaches(key.id, once)).toBeCloseTo(once, 12);

    const streamed = await post(key.key, "/v1/messages", { ...body, stream: true });
    expect(streamed.status).toBe(200);
    await streamed.text();
    expect(await usedReaches(key.id, 2 * once)).toBeCloseTo(2 * once, 12);

    // Written to the rollups, and read back by every instance's budget refresh.
    await t.gw.rt.meter.flush();
    expect((await features(key.id)).map((f) => [f.provider, f.feature, Number(f.uses)])).toEqual([
      ["anthropic", "web_search", 4],
    ]);
    await t.gw.rt.budgets.refresh();
    expect(t.gw.rt.budgets.status(key.id)?.used).toBeCloseTo(2 * once, 12);
  });

  it("sends service_tier priority to OpenAI and records the tier it answered with", async () => {
    const key = await costKey();
    const body = { model: "openai/gpt-4.1-mini", messages: hello, service_tier: "priority" };
    const res = await post(key.key, "/v1/chat/completions", body);
    expect(res.status).toBe(200);
    expect((await res.json()).service_tier).toBe("priority");
    expect(up.openai!.requests.at(-1)!.body.service_tier).toBe("priority");
    const streamed = await post(key.key, "/v1/chat/completions", { ...body, stream: true });
    await streamed.text();
    const refused = await post(key.key, "/v1/chat/completions", { ...body, service_tier: "flex" });
    expect(refused.status).toBe(400);

    for (let i = 0; i < 50 && t.gw.rt.meter.pendingFor(key.id).length < 3; i++) await sleep(20);
    await t.gw.rt.meter.flush();
    expect((await features(key.id)).map((f) => [f.provider, f.feature, Number(f.uses)])).toEqual([
      ["openai", "service_tier:priority", 2],
    ]);
  });
});
