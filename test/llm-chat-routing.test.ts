import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULTY_REPLY, startFaultyProvider, type FaultyProvider } from "./fakes/faulty-llm.ts";
import { startRoutedGateway, type RoutedGateway } from "./support/routing-gateway.ts";

const credentials = { LLM_ROUTE_A_KEY: "a-key", LLM_ROUTE_B_KEY: "b-key" };

describe("/v1/llm/chat through the model router", () => {
  let gw: RoutedGateway;
  let key: string;
  let faulty: FaultyProvider;

  beforeAll(async () => {
    faulty = await startFaultyProvider();
    gw = await startRoutedGateway({
      routing: {
        deployments: [
          {
            name: "down",
            provider: "openai",
            model: "gpt-4.1",
            credential: "LLM_ROUTE_A_KEY",
            origin: `${faulty.url}/500`,
          },
          {
            name: "claude",
            provider: "anthropic",
            model: "claude-sonnet-4-5",
            credential: "LLM_ROUTE_B_KEY",
            origin: `${faulty.url}/ok`,
          },
          // The faulty provider reports 7 + 3 tokens an answer.
          {
            name: "limited",
            provider: "openai",
            model: "gpt-4.1-mini",
            credential: "LLM_ROUTE_A_KEY",
            origin: `${faulty.url}/ok`,
            rpm: 1,
          },
          {
            name: "capped",
            provider: "openai",
            model: "gpt-4.1-mini",
            credential: "LLM_ROUTE_A_KEY",
            origin: `${faulty.url}/ok`,
            tpm: 5,
          },
          {
            name: "backup",
            provider: "openai",
            model: "gpt-4.1-nano",
            credential: "LLM_ROUTE_A_KEY",
            origin: `${faulty.url}/ok`,
          },
        ],
        aliases: {
          smart: { strategy: "fallback", retries: 0, deployments: ["down", "claude"] },
          "one-a-minute": { deployments: ["limited"] },
          "token-capped": { deployments: ["capped", "claude"] },
          steady: { deployments: ["claude"] },
          broken: { retries: 0, deployments: ["down"] },
          spare: { deployments: ["backup"] },
        },
      },
      providerEnv: credentials,
      env: { GATEWAY_BREAKER_THRESHOLD: "1000" },
    });
    key = gw.apiKey;
  });
  afterAll(async () => {
    await gw?.close();
    await faulty?.close();
  });

  const chat = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    gw.request("/v1/llm/chat", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json", ...headers },
      body: JSON.stringify({ messages: [{ role: "user", content: "route me" }], ...body }),
    });

  it("takes an alias named as the model and falls over from the failing deployment, saying so", async () => {
    const before = faulty.hits.get("500") ?? 0;
    const res = await chat({ model: "smart" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ content: FAULTY_REPLY, provider: "anthropic", fallback_from: ["openai"] });
    expect(res.headers.get("x-gateway-provider")).toBe("anthropic");
    expect(res.headers.get("x-gateway-attempts")).toBe("2");
    expect(faulty.hits.get("500")).toBe(before + 1);
  });

  it("falls over the same way when streamed, before any token reaches the client", async () => {
    const res = await chat({ model: "smart", stream: true });
    expect(res.status).toBe(200);
    const events = (await res.text())
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)) as { content?: string; done?: boolean; provider?: string });
    expect(events.map((e) => e.content ?? "").join("")).toBe(FAULTY_REPLY);
    expect(events.at(-1)).toMatchObject({ done: true, provider: "anthropic" });
  });

  it("lets the body's gateway_route pin a deployment, as x-gateway-route does", async () => {
    const before = faulty.hits.get("500") ?? 0;
    const res = await chat({ model: "smart", gateway_route: "deployment=claude" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-attempts")).toBe("1");
    expect(faulty.hits.get("500") ?? 0).toBe(before);
    const refused = await chat({ model: "smart", gateway_route: "deployment=nowhere" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatch(/deployment 'nowhere' does not serve 'smart'/);
  });

  it("falls over to an alias named in fallback, after the provider's own deployment fails", async () => {
    const res = await chat({ provider: "openai", model: "gpt-4.1", fallback: ["smart"] });
    // openai/gpt-4.1 has no credential of its own here (OPENAI_API_KEY unset): passed over, then the alias.
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ provider: "anthropic", fallback_from: ["openai"] });
  });

  it("passes over a fallback the key may not call: the model answers alone, or its own failure is the answer", async () => {
    const { key: noSpare } = await gw.key({ name: "no spare", modelDeny: ["spare"] });
    const asNoSpare = (body: Record<string, unknown>, requestId: string) =>
      chat(body, { "x-api-key": noSpare, "x-request-id": requestId });
    const answeredBefore = faulty.hits.get("ok") ?? 0;

    const answered = await asNoSpare({ model: "steady", fallback: ["spare"] }, "denied-fallback-answered");
    expect(answered.status).toBe(200);
    const body = await answered.json();
    expect(body).toMatchObject({ content: FAULTY_REPLY, provider: "anthropic" });
    expect(body.fallback_from).toBeUndefined();
    expect(answered.headers.get("x-gateway-attempts")).toBe("1");
    expect(faulty.hits.get("ok")).toBe(answeredBefore + 1);

    // What the failing model alone answers a key without rules: the same comes back, not a 403.
    const alone = await chat({ model: "broken" });
    const failed = await asNoSpare({ model: "broken", fallback: ["spare"] }, "denied-fallback-failed");
    expect(failed.status).not.toBe(403);
    expect(failed.status).toBe(alone.status);
    expect(await failed.json()).toEqual(await alone.json());
    expect(failed.headers.get("x-gateway-attempts")).toBe("1");
    // `spare` was never asked: its deployment answers on the same path as steady's.
    expect(faulty.hits.get("ok")).toBe(answeredBefore + 1);
    await gw.rt.meter.flush();
    const rows = await gw.rt.db.prisma.usageEvent.findMany({ where: { requestId: "denied-fallback-failed" } });
    expect(rows.map((r) => r.attempts)).toEqual([
      [
        {
          deployment: "down",
          provider: "openai",
          model: "gpt-4.1",
          status: 500,
          ms: expect.any(Number),
          outcome: "failed",
          reason: "server",
        },
        {
          deployment: "backup",
          provider: "openai",
          model: "gpt-4.1-nano",
          ms: 0,
          outcome: "skipped",
          reason: "denied-by-key",
        },
      ],
    ]);

    // The model itself denied is refused as before, whatever its fallbacks.
    const refused = await asNoSpare({ model: "spare", fallback: ["steady"] }, "denied-model");
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe("model 'spare' is refused by this key's rule deny 'spare'");
  });

  it("passes a deployment by once it has had its requests or tokens this minute", async () => {
    // Both calls of each pair fall in one clock minute: near its end, wait for the next.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    const first = await chat({ model: "one-a-minute" });
    expect(first.status).toBe(200);
    const second = await chat({ model: "one-a-minute" });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(JSON.stringify(await second.json())).toMatch(/has had its requests or tokens for this minute/);

    const under = await chat({ model: "token-capped" });
    expect(under.headers.get("x-gateway-provider")).toBe("openai");
    const over = await chat({ model: "token-capped" });
    expect(over.status).toBe(200);
    expect(over.headers.get("x-gateway-provider")).toBe("anthropic");
    expect(over.headers.get("x-gateway-attempts")).toBe("1");
  });
});
