import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startFakeAnthropic, type FakeLlm } from "./fakes/llm.ts";
import { PARTIAL_REPLY, startFaultyProvider, type FaultyProvider } from "./fakes/faulty-llm.ts";
import { ask, readAnswer, SURFACES, type Surface } from "./support/compat-surfaces.ts";
import type { TestGateway } from "./support/gateway.ts";
import { startRoutedGateway, type RoutedGateway, type RoutingFile } from "./support/routing-gateway.ts";

/**
 * The model router's faults, surface by surface: each compatible surface, whole and streamed, against
 * each way deployment A can fail, with B (a healthy Anthropic deployment) after it in the alias. What
 * the client sees (status, who answered, x-gateway-attempts, the surface's error event) and what is
 * metered (one row, the answering attempt's) are checked for every cell.
 */

const B_REPLY = "Claude answered instead.";
const B_TOKENS = B_REPLY.split(/(?<= )/).length;
// What A's 429 asks for: whole seconds are what Retry-After carries.
const RETRY_AFTER_S = 1;
// A hang is given up after the alias's timeout_ms; the test itself waits for as long as it takes.
const HANG_TIMEOUT_MS = 400;

const FAULTS = ["500", "429", "529", "hang", "reset", "reset-before-event", "reset-after-event", "400"] as const;
type Fault = (typeof FAULTS)[number];
type Wire = "openai" | "anthropic";

type Expected =
  | { outcome: "fallback"; attempts: number; aCalls: number }
  | { outcome: "error-event"; attempts: 1; aCalls: 1 }
  | { outcome: "refused"; status: 400; attempts: 1; aCalls: 1 };

/** What each fault must come to: a retry or a fallback while nothing has reached the client, else A's own answer. */
function expected(fault: Fault, stream: boolean): Expected {
  if (fault === "400") return { outcome: "refused", status: 400, attempts: 1, aCalls: 1 };
  // The alias retries A once on a 429 (after its Retry-After), then falls over.
  if (fault === "429") return { outcome: "fallback", attempts: 3, aCalls: 2 };
  // A stream that has begun is the client's: a reset then is its error event, never a second answer.
  if (fault === "reset-after-event" && stream) return { outcome: "error-event", attempts: 1, aCalls: 1 };
  return { outcome: "fallback", attempts: 2, aCalls: 1 };
}

const aliasOf = (wire: Wire, fault: Fault) => `${wire}-${fault}`;
const A_MODEL: Record<Wire, string> = { openai: "gpt-4.1", anthropic: "claude-haiku-4-5" };

function routing(faulty: string, anthropic: string): RoutingFile {
  const deployments: object[] = [];
  const aliases: Record<string, object> = {};
  for (const wire of ["openai", "anthropic"] as const)
    for (const fault of FAULTS) {
      const name = `a-${aliasOf(wire, fault)}`;
      deployments.push({
        name,
        provider: wire,
        model: A_MODEL[wire],
        credential: "MATRIX_A_KEY",
        origin: `${faulty}/${fault}`,
      });
      aliases[aliasOf(wire, fault)] = {
        deployments: [name, "b"],
        retries: fault === "429" ? 1 : 0,
        ...(fault === "hang" && { timeout_ms: HANG_TIMEOUT_MS }),
      };
    }
  deployments.push({
    name: "b",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    credential: "MATRIX_B_KEY",
    origin: anthropic,
  });
  return { deployments, aliases };
}

const credentials = { MATRIX_A_KEY: "a-key", MATRIX_B_KEY: "b-key" };
const roomy = { minute: 100_000, day: 1_000_000, concurrency: 1_000 };

async function meteredRows(gw: TestGateway, requestId: string) {
  await gw.rt.meter.flush();
  return gw.rt.db.prisma.usageEvent.findMany({ where: { requestId } });
}

describe("model routing matrix: {chat/completions, messages, responses} × {whole, stream} × each fault of A", () => {
  let gw: RoutedGateway;
  let key: string;
  let faulty: FaultyProvider;
  let b: FakeLlm;

  beforeAll(async () => {
    [faulty, b] = await Promise.all([
      startFaultyProvider({ retryAfter: String(RETRY_AFTER_S) }),
      startFakeAnthropic({ key: "b-key", reply: B_REPLY }),
    ]);
    gw = await startRoutedGateway({
      routing: routing(faulty.url, b.url),
      providerEnv: credentials,
      env: { GATEWAY_BREAKER_THRESHOLD: "1000" },
      key: roomy,
    });
    key = gw.apiKey;
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([faulty?.close(), b?.close()]);
  });

  // The messages surface meets A on both wires: Anthropic's as sent, and OpenAI's through the pivot.
  const cells: Array<{ surface: Surface; wire: Wire; stream: boolean; fault: Fault }> = [];
  for (const surface of SURFACES)
    for (const wire of ["openai", "anthropic"] as const)
      for (const stream of [false, true]) for (const fault of FAULTS) cells.push({ surface, wire, stream, fault });

  it.each(cells)("$surface, $wire A, stream $stream, A fails with $fault", async ({ surface, wire, stream, fault }) => {
    const want = expected(fault, stream);
    const alias = aliasOf(wire, fault);
    const aBefore = faulty.hits.get(fault) ?? 0;
    const arrivalsBefore = faulty.arrivals.get(fault)?.length ?? 0;
    const bBefore = b.requests.length;
    const requestId = `matrix-${randomUUID()}`;

    const res = await ask(gw, key, surface, alias, stream, requestId);
    const body = res.ok ? await readAnswer(res, surface, stream) : { text: await res.text() };

    expect(res.headers.get("x-gateway-attempts")).toBe(String(want.attempts));
    expect(faulty.hits.get(fault)! - aBefore).toBe(want.aCalls);
    const rows = await meteredRows(gw, requestId);
    expect(rows).toHaveLength(1);

    if (want.outcome === "refused") {
      expect(res.status).toBe(want.status);
      expect(body.text).toContain("failing with 400 as asked");
      expect(b.requests.length).toBe(bBefore);
      expect(rows[0]).toMatchObject({ status: 400 });
      return;
    }
    expect(res.status).toBe(200);
    if (want.outcome === "error-event") {
      // A's first words reached the client, then the surface's error event; B was never asked.
      expect(res.headers.get("x-gateway-provider")).toBe(wire);
      expect(body.text).toBe(PARTIAL_REPLY);
      expect(body.errorEvent).toBeDefined();
      expect(b.requests.length).toBe(bBefore);
      expect(rows[0]).toMatchObject({ status: 200, provider: wire, model: A_MODEL[wire] });
      return;
    }
    expect(res.headers.get("x-gateway-provider")).toBe("anthropic");
    expect(res.headers.get("x-gateway-model")).toBe("claude-sonnet-4-5");
    expect(body).toEqual({ text: B_REPLY });
    expect(b.requests.length).toBe(bBefore + 1);
    // Only B's answer is billed: its model and the tokens it reported, none of A's.
    const bAsked = b.requests.at(-1)!.body;
    expect(rows[0]).toMatchObject({
      status: 200,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      promptTokens: JSON.stringify(bAsked.messages).length >> 2,
      completionTokens: B_TOKENS,
    });
    if (fault === "429") {
      // The retry waited for A's Retry-After (a lower bound: the wait cannot be shorter).
      const [first, second] = faulty.arrivals.get(fault)!.slice(arrivalsBefore);
      expect(second! - first!).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 - 50);
    }
  });
});

describe.runIf(process.env.REDIS_URL)("model routing: two instances on one Redis share a breaker", () => {
  const gateways: RoutedGateway[] = [];
  let faulty: FaultyProvider;
  let b: FakeLlm;
  const suffix = randomUUID().slice(0, 8);
  const a = `shared-a-${suffix}`;

  beforeAll(async () => {
    [faulty, b] = await Promise.all([startFaultyProvider(), startFakeAnthropic({ key: "b-key", reply: B_REPLY })]);
    const shared = {
      limits: "redis" as const,
      routing: {
        deployments: [
          { name: a, provider: "openai", model: "gpt-4.1", credential: "MATRIX_A_KEY", origin: `${faulty.url}/500` },
          {
            name: `b-${suffix}`,
            provider: "anthropic",
            model: "claude-sonnet-4-5",
            credential: "MATRIX_B_KEY",
            origin: b.url,
          },
        ],
        aliases: { smart: { deployments: [a, `b-${suffix}`], retries: 0 } },
      },
      providerEnv: credentials,
      env: { GATEWAY_BREAKER_THRESHOLD: "2", GATEWAY_BREAKER_COOLDOWN_MS: "600000" },
      key: roomy,
    };
    for (let i = 0; i < 2; i++) gateways.push(await startRoutedGateway(shared));
  });
  afterAll(async () => {
    // The last started first: each puts back the process's environment it found.
    for (const gw of gateways.toReversed()) await gw.close();
    await Promise.all([faulty?.close(), b?.close()]);
    // The breaker opened for ten minutes: leave no open breaker behind in the shared Redis.
    const redis = new Redis(process.env.REDIS_URL!);
    await redis.hdel("gw:breaker:open", a);
    await redis.quit();
  });

  it("failures seen by the first open it on the second, which then sends nothing to A", async () => {
    const [first, second] = gateways as [RoutedGateway, RoutedGateway];
    const [firstKey, secondKey] = [first.apiKey, second.apiKey];
    // The second's router (and its subscription) is made by its first model call: one pinned to B.
    const warm = await second.request("/v1/chat/completions", {
      method: "POST",
      headers: {
        authorization: `Bearer ${secondKey}`,
        "content-type": "application/json",
        "x-gateway-route": `deployment=b-${suffix}`,
      },
      body: JSON.stringify({ model: "smart", messages: [{ role: "user", content: "warm up" }] }),
    });
    expect(warm.status).toBe(200);
    expect(await (await second.request("/metrics")).text()).toContain(`gateway_llm_breaker_open{deployment="${a}"} 0`);
    for (let i = 0; i < 2; i++) {
      const res = await ask(first, firstKey, "chat", "smart", false, `shared-${randomUUID()}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-gateway-attempts")).toBe("2");
    }
    expect(faulty.hits.get("500")).toBe(2);
    // The second instance hears of it on pub/sub, after the first has answered.
    const open = new RegExp(`gateway_llm_breaker_open\\{deployment="${a}"\\} 1`);
    await vi.waitFor(async () => expect(await (await second.request("/metrics")).text()).toMatch(open), {
      timeout: 10_000,
    });
    for (const stream of [false, true]) {
      const res = await ask(second, secondKey, "messages", "smart", stream, `shared-${randomUUID()}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-gateway-attempts")).toBe("1");
      expect(res.headers.get("x-gateway-provider")).toBe("anthropic");
      expect((await readAnswer(res, "messages", stream)).text).toBe(B_REPLY);
    }
    expect(faulty.hits.get("500")).toBe(2);
  });
});
