import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startFaultyProvider, type FaultyProvider } from "./fakes/faulty-llm.ts";
import { startFakeAnthropic, type FakeLlm } from "./fakes/llm.ts";
import { limitBackends } from "./support/backends.ts";
import type { TestGateway } from "./support/gateway.ts";
import { startRoutedGateway, type RoutedGateway, type RoutingFile } from "./support/routing-gateway.ts";

/**
 * A routing file: deployment `a-<mode>` on the failing fake for each mode, `b` on the Anthropic fake
 * (each name followed by `suffix`, so breakers shared through one Redis stay apart between runs).
 */
function routing(failing: string, anthropic: string, aliases: Record<string, object>, suffix = ""): RoutingFile {
  const modes = ["500", "429", "529", "400", "reset"];
  return {
    deployments: [
      ...modes.map((mode) => ({
        name: `a-${mode}${suffix}`,
        provider: "openai",
        model: "gpt-4.1",
        credential: "ROUTING_A_KEY",
        origin: `${failing}/${mode}`,
      })),
      {
        name: `b${suffix}`,
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        credential: "ROUTING_B_KEY",
        origin: anthropic,
      },
    ],
    aliases,
  };
}

const credentials = { ROUTING_A_KEY: "a-key", ROUTING_B_KEY: "b-key" };

type Surface = "chat" | "messages";

function ask(gw: TestGateway, key: string, surface: Surface, model: string, stream: boolean, requestId?: string) {
  const body =
    surface === "chat"
      ? { model, stream, messages: [{ role: "user", content: "route me" }] }
      : { model, stream, max_tokens: 50, messages: [{ role: "user", content: "route me" }] };
  return gw.request(surface === "chat" ? "/v1/chat/completions" : "/v1/messages", {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      ...(requestId && { "x-request-id": requestId }),
    },
    body: JSON.stringify(body),
  });
}

/** The text a whole or streamed answer carries, in either surface's shape. */
async function answerText(res: Response, surface: Surface, stream: boolean): Promise<string> {
  if (!stream) {
    const json = (await res.json()) as {
      model: string;
      choices?: { message: { content: string } }[];
      content?: { text: string }[];
    };
    expect(json.model).toBe("smart");
    return surface === "chat" ? json.choices![0]!.message.content : json.content![0]!.text;
  }
  expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
  const events = (await res.text())
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map((l) => JSON.parse(l.slice(6)) as { choices?: { delta: { content?: string } }[]; delta?: { text?: string } });
  if (surface === "chat") return events.map((e) => e.choices?.[0]?.delta?.content ?? "").join("");
  return events.map((e) => e.delta?.text ?? "").join("");
}

/** The values of these exact series in /metrics, 0 for a series not there yet. */
async function seriesValues(gw: TestGateway, series: string[]): Promise<number[]> {
  const lines = (await (await gw.request("/metrics")).text()).split("\n");
  return series.map((name) => {
    const line = lines.find((l) => l.startsWith(`${name} `));
    return line ? Number(line.slice(name.length + 1)) : 0;
  });
}

describe("model routing: an alias falls over from a failing OpenAI-wire deployment to an Anthropic one", () => {
  let gw: RoutedGateway;
  let key: string;
  let failing: FaultyProvider;
  let anthropic: FakeLlm;

  beforeAll(async () => {
    [failing, anthropic] = await Promise.all([
      startFaultyProvider(),
      startFakeAnthropic({ key: "b-key", reply: "Claude answered instead." }),
    ]);
    gw = await startRoutedGateway({
      routing: routing(failing.url, anthropic.url, {
        // No retry on A: one attempt there, one on B.
        smart: { deployments: ["a-500", "b"], retries: 0 },
        busy: { deployments: ["a-429", "b"] },
        overloaded: { deployments: ["a-529", "b"], retries: 0 },
        flaky: { deployments: ["a-reset", "b"], retries: 0 },
        strict: { deployments: ["a-400", "b"] },
      }),
      providerEnv: credentials,
      env: { GATEWAY_BREAKER_THRESHOLD: "1000" },
    });
    key = gw.apiKey;
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([failing?.close(), anthropic?.close()]);
  });

  for (const surface of ["chat", "messages"] as const) {
    for (const stream of [false, true]) {
      it(`${surface}, ${stream ? "streamed" : "whole"}: a 500 from A, the answer from B, the attempts in the headers`, async () => {
        const before = failing.hits.get("500") ?? 0;
        const res = await ask(gw, key, surface, "smart", stream);
        expect(res.status).toBe(200);
        expect(res.headers.get("x-gateway-provider")).toBe("anthropic");
        expect(res.headers.get("x-gateway-model")).toBe("claude-sonnet-4-5");
        expect(res.headers.get("x-gateway-attempts")).toBe("2");
        expect(await answerText(res, surface, stream)).toBe("Claude answered instead.");
        expect(failing.hits.get("500")).toBe(before + 1);
        expect(anthropic.requests.at(-1)!.body.model).toBe("claude-sonnet-4-5");
      });
    }
  }

  it("/v1/responses goes through the same router: the response is named by the alias, answered by B", async () => {
    const res = await gw.request("/v1/responses", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "smart", input: "route me", store: false }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-provider")).toBe("anthropic");
    expect(res.headers.get("x-gateway-attempts")).toBe("2");
    const body = (await res.json()) as { model: string; output_text?: string; output: unknown[] };
    expect(body.model).toBe("smart");
    expect(JSON.stringify(body.output)).toContain("Claude answered instead.");
  });

  it("retries a 429 with Retry-After: 0 once on A, then answers from B", async () => {
    const res = await ask(gw, key, "chat", "busy", false);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-attempts")).toBe("3");
    expect(res.headers.get("x-gateway-provider")).toBe("anthropic");
    expect(failing.hits.get("429")).toBe(2);
  });

  it("falls over on Anthropic-style 529 and on a connection reset, whole and streamed", async () => {
    const overloaded = await ask(gw, key, "messages", "overloaded", false);
    expect(overloaded.status).toBe(200);
    expect(overloaded.headers.get("x-gateway-attempts")).toBe("2");
    expect(failing.hits.get("529")).toBe(1);
    const reset = await ask(gw, key, "chat", "flaky", true);
    expect(reset.status).toBe(200);
    expect(reset.headers.get("x-gateway-provider")).toBe("anthropic");
    expect(await reset.text()).toContain("Claude");
    expect(failing.hits.get("reset")).toBe(1);
  });

  it("does not retry nor fall over on a 400: the client gets it, B is never asked", async () => {
    const asked = anthropic.requests.length;
    for (const surface of ["chat", "messages"] as const) {
      const res = await ask(gw, key, surface, "strict", false);
      expect(res.status).toBe(400);
      expect(res.headers.get("x-gateway-attempts")).toBe("1");
      expect(JSON.stringify(await res.json())).toContain("failing with 400 as asked");
    }
    expect(failing.hits.get("400")).toBe(2);
    expect(anthropic.requests.length).toBe(asked);
  });

  it("meters only the attempt that answered: one event, B's provider, model and tokens, counted in /metrics", async () => {
    const requestId = "routing-metered-1";
    const b = 'provider="anthropic",model="claude-sonnet-4-5"';
    const names = [
      `gateway_llm_tokens_total{${b},direction="input"}`,
      `gateway_llm_tokens_total{${b},direction="output"}`,
      `gateway_llm_cost_usd_total{${b}}`,
      `gateway_llm_requests_total{${b},route="/v1/chat/completions",status_class="2xx"}`,
    ];
    const before = await seriesValues(gw, names);
    const res = await ask(gw, key, "chat", "smart", false, requestId);
    expect(res.status).toBe(200);
    const { usage } = (await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number } };
    await gw.rt.meter.flush();
    const events = await gw.rt.db.prisma.usageEvent.findMany({ where: { requestId } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      status: 200,
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
    });
    const after = await seriesValues(gw, names);
    const added = after.map((v, i) => v - before[i]!);
    expect(added.slice(0, 2)).toEqual([usage.prompt_tokens, usage.completion_tokens]);
    // claude-sonnet-4-5 at the default prices: $3 in, $15 out per million tokens.
    expect(added[2]).toBeCloseTo((usage.prompt_tokens * 3 + usage.completion_tokens * 15) / 1e6, 12);
    expect(added[3]).toBe(1);
  });

  it("counts attempts per deployment and outcome in /metrics", async () => {
    const text = await (await gw.request("/metrics")).text();
    expect(text).toMatch(/gateway_llm_attempts_total\{deployment="a-500",outcome="failed"\} [1-9]/);
    expect(text).toMatch(/gateway_llm_attempts_total\{deployment="a-429",outcome="retried"\} 1/);
    expect(text).toMatch(/gateway_llm_attempts_total\{deployment="b",outcome="ok"\} [1-9]/);
    expect(text).toMatch(/gateway_llm_breaker_open\{deployment="a-500"\} 0/);
  });

  it("counts the calls that fell over per alias and answering deployment, and not those answered first time", async () => {
    const [smart, pinned] = await seriesValues(gw, [
      'gateway_llm_fallbacks_total{alias="smart",deployment="b"}',
      'gateway_llm_attempts_total{deployment="b",outcome="ok"}',
    ]);
    expect(await (await ask(gw, key, "chat", "smart", false)).text()).toContain("Claude");
    const pin = await gw.request("/v1/chat/completions", {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "x-gateway-route": "deployment=b",
      },
      body: JSON.stringify({ model: "smart", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(pin.status).toBe(200);
    // A's 500 sent the first to B; the pinned one was answered by the first deployment it reached.
    expect(
      await seriesValues(gw, [
        'gateway_llm_fallbacks_total{alias="smart",deployment="b"}',
        'gateway_llm_attempts_total{deployment="b",outcome="ok"}',
      ]),
    ).toEqual([smart! + 1, pinned! + 2]);
  });

  it("refuses an x-gateway-route it cannot read, and pins a deployment the alias lists", async () => {
    const refused = await gw.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-gateway-route": "fastest" },
      body: JSON.stringify({ model: "smart", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(refused.status).toBe(400);
    const hits = failing.hits.get("500");
    const pinned = await gw.request("/v1/chat/completions", {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "x-gateway-route": "deployment=b",
      },
      body: JSON.stringify({ model: "smart", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get("x-gateway-attempts")).toBe("1");
    expect(failing.hits.get("500")).toBe(hits);
  });
});

describe.each(limitBackends)(
  "model routing: a breaker opens after GATEWAY_BREAKER_THRESHOLD failures, and A is then skipped (breakers: %s)",
  (backend) => {
    let gw: RoutedGateway;
    let key: string;
    let failing: FaultyProvider;
    let anthropic: FakeLlm;
    const suffix = `-${randomUUID().slice(0, 8)}`;
    const a = `a-500${suffix}`;

    beforeAll(async () => {
      [failing, anthropic] = await Promise.all([
        startFaultyProvider(),
        startFakeAnthropic({ key: "b-key", reply: "Claude answered instead." }),
      ]);
      gw = await startRoutedGateway({
        limits: backend,
        routing: routing(failing.url, anthropic.url, { smart: { deployments: [a, `b${suffix}`], retries: 0 } }, suffix),
        providerEnv: credentials,
        env: { GATEWAY_BREAKER_THRESHOLD: "2", GATEWAY_BREAKER_COOLDOWN_MS: "600000" },
      });
      key = gw.apiKey;
    });
    afterAll(async () => {
      await gw?.close();
      await Promise.all([failing?.close(), anthropic?.close()]);
      if (backend === "redis") {
        // The breaker opened for ten minutes: leave no open breaker behind in the shared Redis.
        const redis = new Redis(process.env.REDIS_URL!);
        await redis.hdel("gw:breaker:open", a);
        await redis.quit();
      }
    });

    it("two failures open it; the next request goes straight to B, and /metrics shows it open", async () => {
      for (let i = 0; i < 2; i++) {
        const res = await ask(gw, key, "chat", "smart", false);
        expect(res.status).toBe(200);
        expect(res.headers.get("x-gateway-attempts")).toBe("2");
      }
      expect(failing.hits.get("500")).toBe(2);
      // Shared breakers open once Redis has counted the second failure, after that answer was sent.
      const breakerOpen = new RegExp(`gateway_llm_breaker_open\\{deployment="${a}"\\} 1`);
      await vi.waitFor(async () => expect(await (await gw.request("/metrics")).text()).toMatch(breakerOpen));
      const res = await ask(gw, key, "messages", "smart", true);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-gateway-attempts")).toBe("1");
      expect(res.headers.get("x-gateway-provider")).toBe("anthropic");
      expect(await answerText(res, "messages", true)).toBe("Claude answered instead.");
      expect(failing.hits.get("500")).toBe(2);
      const text = await (await gw.request("/metrics")).text();
      expect(text).toContain(`gateway_llm_attempts_total{deployment="${a}",outcome="skipped"} 1`);
    });
  },
);
