import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { startFakeAnthropic, startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { useGateway } from "./support/use-gateway.ts";

async function readEvents(res: Response): Promise<Array<Record<string, unknown>>> {
  const events: Array<Record<string, unknown>> = [];
  const parser = createParser({ onEvent: (e) => events.push(JSON.parse(e.data)) });
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
    parser.feed(decoder.decode(chunk, { stream: true }));
  return events;
}

describe("/v1/llm chat, models and tier selection against fake providers", () => {
  let xai: FakeLlm;
  let slowXai: FakeLlm;
  let anthropic: FakeLlm;
  const t = useGateway({
    fakes: async () => {
      [xai, anthropic] = await Promise.all([
        startFakeOpenAICompatible({ key: "xai-test", reply: "The answer is forty two." }),
        startFakeAnthropic({ key: "ant-test", reply: "Considered reply." }),
      ]);
      slowXai = await startFakeOpenAICompatible({
        key: "xai-test",
        reply: Array.from({ length: 200 }, (_, i) => `w${i} `).join(""),
        delayMs: 20,
      });
      return [xai, slowXai, anthropic];
    },
    env: () => ({
      ...Object.fromEntries(
        ["XAI", "OPENAI", "ANTHROPIC", "MISTRAL", "GROQ", "PERPLEXITY", "GEMINI", "COHERE"].map((name) => [
          `${name}_API_KEY`,
          undefined,
        ]),
      ),
      XAI_API_KEY: "xai-test",
      UPSTREAM_XAI_URL: xai.url,
      ANTHROPIC_API_KEY: "ant-test",
      UPSTREAM_ANTHROPIC_URL: anthropic.url,
    }),
    key: { minute: 1000 },
    // Each failure mapped here must reach the provider: breakers are tested in model-routing.
    config: { GATEWAY_BREAKER_THRESHOLD: "1000" },
  });

  const { post } = t;
  const hello = [{ role: "user", content: "What is the answer?" }];

  it("chats with the default provider (xai) and its default model, and meters the tokens", async () => {
    const res = await post("/v1/llm/chat", {
      messages: [{ role: "system", content: "Be brief." }, ...hello],
      temperature: 0.2,
      max_tokens: 50,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      content: "The answer is forty two.",
      model: "grok-4-fast-2026",
      provider: "xai",
      usage: { prompt_tokens: expect.any(Number), completion_tokens: 5, total_tokens: expect.any(Number) },
    });
    const sent = xai.requests.at(-1)!.body;
    expect(sent).toMatchObject({ model: "grok-4-fast", temperature: 0.2, max_tokens: 50 });
    expect(sent.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "What is the answer?" },
    ]);

    await t.gw.rt.meter.flush();
    const event = (
      await t.gw.rt.db.prisma.usageEvent.findMany({ where: { keyId: t.keyId, route: "/v1/llm/chat" } })
    ).at(-1)!;
    expect(event).toMatchObject({ provider: "xai", model: "grok-4-fast-2026", completionTokens: 5 });
    expect(event.promptTokens).toBe(body.usage.prompt_tokens);
  });

  it("streams server-sent events: content deltas, then done with usage (body flag or ?stream=true)", async () => {
    for (const [path, extra] of [
      ["/v1/llm/chat", { stream: true }],
      ["/v1/llm/chat?stream=true", {}],
    ] as const) {
      const res = await post(path, { messages: hello, ...extra });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const events = await readEvents(res);
      const last = events.at(-1)!;
      expect(last).toMatchObject({ done: true, provider: "xai", usage: { completion_tokens: 5 } });
      expect(
        events
          .slice(0, -1)
          .map((e) => e.content)
          .join(""),
      ).toBe("The answer is forty two.");
      expect(events.slice(0, -1).every((e) => typeof e.content === "string")).toBe(true);
    }
    await new Promise((r) => setTimeout(r, 20));
    await t.gw.rt.meter.flush();
    const streamed = await t.gw.rt.db.prisma.usageEvent.findMany({
      where: { keyId: t.keyId, route: "/v1/llm/chat", completionTokens: 5 },
    });
    expect(streamed.length).toBeGreaterThanOrEqual(3);
    expect(streamed.every((e) => e.bytesOut > 0)).toBe(true);
  });

  it("passes Anthropic's thinking controls on, and refuses them for other providers", async () => {
    const res = await post("/v1/llm/chat", {
      messages: hello,
      provider: "anthropic",
      thinking: { type: "enabled", budget_tokens: 2048 },
      max_tokens: 4000,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      content: "Considered reply.",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
    });
    expect(anthropic.requests.at(-1)!.body).toMatchObject({
      model: "claude-sonnet-4-5",
      thinking: { type: "enabled", budget_tokens: 2048 },
    });

    const streamed = await readEvents(
      await post("/v1/llm/chat", { messages: hello, provider: "anthropic", stream: true }),
    );
    expect(streamed.at(-1)).toMatchObject({ done: true, usage: { completion_tokens: 2 } });

    const refused = await post("/v1/llm/chat", { messages: hello, effort: "high" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatch(/effort is only supported by anthropic, not xai/);
  });

  it("answers with clear errors: unknown provider 400, unconfigured 503, bad input 400", async () => {
    const unknown = await post("/v1/llm/chat", { messages: hello, provider: "skynet" });
    expect(unknown.status).toBe(400);
    const unconfigured = await post("/v1/llm/chat", { messages: hello, provider: "mistral" });
    expect(unconfigured.status).toBe(503);
    expect((await unconfigured.json()).error).toBe("mistral is not configured: set MISTRAL_API_KEY");
    const hot = await post("/v1/llm/chat", { messages: hello, temperature: 3 });
    expect(hot.status).toBe(400);
    expect((await hot.json()).error).toMatch(/temperature/);
    expect((await post("/v1/llm/chat", { messages: [{ role: "robot", content: "x" }] })).status).toBe(400);
    expect((await post("/v1/llm/chat", { messages: [] })).status).toBe(400);
  });

  it("maps provider failures: rejected credentials 502, rate limits 503 with Retry-After, outages 502", async () => {
    const cases: Array<[number, number, RegExp]> = [
      [401, 502, /rejected the gateway's credentials/],
      [429, 503, /rate limiting/],
      [500, 502, /xai failed \(500\)/],
    ];
    for (const [upstreamStatus, status, message] of cases) {
      const failing = await startFakeOpenAICompatible({
        key: "xai-test",
        failWith: upstreamStatus === 401 ? undefined : upstreamStatus,
      });
      process.env.UPSTREAM_XAI_URL = failing.url;
      if (upstreamStatus === 401) process.env.XAI_API_KEY = "wrong";
      try {
        for (const stream of [false, true]) {
          const res = await post("/v1/llm/chat", { messages: hello, stream });
          expect(res.status, `${upstreamStatus} stream=${stream}`).toBe(status);
          expect((await res.json()).error).toMatch(message);
          if (upstreamStatus === 429) expect(res.headers.get("retry-after")).toBe("7");
        }
      } finally {
        process.env.UPSTREAM_XAI_URL = xai.url;
        process.env.XAI_API_KEY = "xai-test";
        await failing.close();
      }
    }
  });

  it("falls back to the next provider when one fails, but not when the request itself is wrong", async () => {
    const down = await startFakeOpenAICompatible({ key: "xai-test", failWith: 500 });
    process.env.UPSTREAM_XAI_URL = down.url;
    try {
      const res = await post("/v1/llm/chat", { messages: hello, fallback: ["anthropic"] });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        provider: "anthropic",
        content: "Considered reply.",
        fallback_from: ["xai"],
      });
      const streamed = await readEvents(
        await post("/v1/llm/chat", { messages: hello, stream: true, fallback: ["anthropic"] }),
      );
      expect(streamed.at(-1)).toMatchObject({ done: true, provider: "anthropic" });
      const noFallback = await post("/v1/llm/chat", { messages: hello });
      expect(noFallback.status).toBe(502);
      const callerError = await post("/v1/llm/chat", { messages: hello, effort: "low", fallback: ["anthropic"] });
      expect(callerError.status).toBe(400);
    } finally {
      process.env.UPSTREAM_XAI_URL = xai.url;
      await down.close();
    }
  });

  it("aborts the upstream request when the client disconnects mid-stream, and still meters it", async () => {
    process.env.UPSTREAM_XAI_URL = slowXai.url;
    const where = { keyId: t.keyId, route: "/v1/llm/chat" };
    await t.gw.rt.meter.flush();
    const before = await t.gw.rt.db.prisma.usageEvent.count({ where });
    try {
      const res = await post("/v1/llm/chat", { messages: hello, stream: true });
      const reader = res.body!.getReader();
      await reader.read();
      await reader.read();
      await reader.cancel();
      // Waited for, not timed: the abort and the metering come when a busy machine gets to them.
      await expect.poll(() => slowXai.abandoned(), { timeout: 15_000 }).toBe(1);
      await expect
        .poll(
          async () => {
            await t.gw.rt.meter.flush();
            return t.gw.rt.db.prisma.usageEvent.count({ where });
          },
          { timeout: 15_000 },
        )
        .toBe(before + 1);
      const events = await t.gw.rt.db.prisma.usageEvent.findMany({ where, orderBy: { id: "desc" }, take: 1 });
      expect(events[0]!.completionTokens).toBeGreaterThan(0);
      expect(events[0]!.completionTokens).toBeLessThan(200);
    } finally {
      process.env.UPSTREAM_XAI_URL = xai.url;
    }
  });

  it("lists models of configured providers, filtered by ?provider=", async () => {
    const all = await (await t.gw.request("/v1/llm/models", { headers: { "X-API-Key": t.key } })).json();
    expect(new Set(all.models.map((m: { provider: string }) => m.provider))).toEqual(new Set(["xai", "anthropic"]));
    expect(all.models).toContainEqual({ id: "grok-4-fast", provider: "xai", tiers: ["balanced"], default: true });
    const only = await (
      await t.gw.request("/v1/llm/models?provider=anthropic", { headers: { "X-API-Key": t.key } })
    ).json();
    expect(only.models.every((m: { provider: string }) => m.provider === "anthropic")).toBe(true);
  });

  it("selects by the documented rule in both forms, and smart-chat uses the selection", async () => {
    const a = await (await post("/v1/llm/tiered-select", { task: "Summarise this memo", budget: "premium" })).json();
    expect(a).toMatchObject({ provider: "anthropic", model: "claude-opus-4-1", tier: "premium", configured: true });
    expect(a.reason).toMatch(/first configured provider in the premium preference order/);
    const b = await (
      await post("/v1/llm/tiered-select", { task: "Classify", budget_tier: "cheap", provider: "xai" })
    ).json();
    expect(b).toMatchObject({ provider: "xai", model: "grok-3-mini", tier: "cheap" });
    const def = await (await post("/v1/llm/tiered-select", { task: "x" })).json();
    expect(def).toMatchObject({ provider: "xai", tier: "balanced" });

    const smart = await (await post("/v1/llm/smart-chat", { messages: hello, budget: "cheap" })).json();
    expect(smart).toMatchObject({
      provider: "xai",
      content: "The answer is forty two.",
      selection: { tier: "cheap", model: "grok-3-mini" },
    });
    expect(xai.requests.at(-1)!.body.model).toBe("grok-3-mini");
  });

  it("reaches every OpenAI-compatible provider at its documented path with its default model", async () => {
    const cases: Array<[string, string, string]> = [
      ["openai", "/v1", "gpt-4.1-mini"],
      ["mistral", "/v1", "mistral-medium-latest"],
      ["groq", "/openai/v1", "llama-3.3-70b-versatile"],
      ["perplexity", "", "sonar"],
      ["cohere", "/compatibility/v1", "command-a-03-2025"],
      ["gemini", "/v1beta/openai", "gemini-2.5-flash"],
    ];
    for (const [provider, basePath, model] of cases) {
      const fake = await startFakeOpenAICompatible({ key: `${provider}-key`, basePath, reply: `hi from ${provider}` });
      const upper = provider.toUpperCase();
      process.env[`${upper}_API_KEY`] = `${provider}-key`;
      process.env[`UPSTREAM_${upper}_URL`] = fake.url;
      try {
        const res = await post("/v1/llm/chat", { messages: hello, provider });
        expect(res.status, provider).toBe(200);
        expect(await res.json()).toMatchObject({ provider, content: `hi from ${provider}` });
        expect(fake.requests.at(-1)).toMatchObject({ path: `${basePath}/chat/completions`, body: { model } });
      } finally {
        delete process.env[`${upper}_API_KEY`];
        delete process.env[`UPSTREAM_${upper}_URL`];
        await fake.close();
      }
    }
  });

  it("lists the configured providers in /v1/capabilities", async () => {
    const caps = await (await t.gw.request("/v1/capabilities")).json();
    expect(caps.providers).toEqual(["xai", "anthropic"]);
  });
});
