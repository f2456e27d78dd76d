import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptReason } from "../lib/portal/usage/attempt-text.ts";
import { requestDetailView } from "../lib/portal/usage/request-log.ts";
import type { RequestAttempt } from "../lib/usage/request-attempts.ts";
import { startFaultyProvider, type FaultyProvider } from "./fakes/faulty-llm.ts";
import { startFakeAnthropic, type FakeLlm } from "./fakes/llm.ts";
import { databaseBackends } from "./support/backends.ts";
import { startRoutedGateway, type RoutedGateway } from "./support/routing-gateway.ts";

const credentials = { ATTEMPTS_A_KEY: "a-key", ATTEMPTS_B_KEY: "b-key" };

// On both databases: the attempts column is written by the driver's own unnest statement (lib/usage/writer.ts).
describe.each(databaseBackends)("the request log shows every attempt of a routed model call, on %s", (db) => {
  let gw: RoutedGateway;
  let key: string;
  let failing: FaultyProvider;
  let anthropic: FakeLlm;

  beforeAll(async () => {
    [failing, anthropic] = await Promise.all([
      startFaultyProvider(),
      startFakeAnthropic({ key: "b-key", reply: "Claude answered instead." }),
    ]);
    const failingDeployment = (name: string, status: number) => ({
      name,
      provider: "openai",
      model: "gpt-4.1",
      credential: "ATTEMPTS_A_KEY",
      origin: `${failing.url}/${status}`,
    });
    gw = await startRoutedGateway({
      db,
      routing: {
        deployments: [
          failingDeployment("a-500", 500),
          failingDeployment("a-429", 429),
          failingDeployment("a-502", 502),
          failingDeployment("a-503", 503),
          {
            name: "b",
            provider: "anthropic",
            model: "claude-sonnet-4-5",
            credential: "ATTEMPTS_B_KEY",
            origin: anthropic.url,
          },
        ],
        aliases: {
          smart: { deployments: ["a-500", "b"], retries: 0 },
          busy: { deployments: ["a-429", "b"], retries: 1 },
          tripping: { deployments: ["a-502", "b"], retries: 0 },
          healthy: { deployments: ["b"] },
          broken: { deployments: ["a-503"], retries: 0 },
        },
      },
      providerEnv: credentials,
      // One failure opens a breaker: each alias's failing deployment is its own, so only `tripping` meets an open one.
      env: { GATEWAY_BREAKER_THRESHOLD: "1" },
    });
    key = gw.apiKey;
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([failing?.close(), anthropic?.close()]);
  });

  async function chat(model: string, requestId: string): Promise<Response> {
    const res = await gw.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-request-id": requestId },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "route me" }] }),
    });
    await res.text();
    return res;
  }

  /** The request's attempts as the operator's detail page reads them. */
  async function attemptsOf(requestId: string): Promise<RequestAttempt[] | null> {
    const detail = await requestDetailView(gw.rt, { operator: true }, requestId);
    expect(detail?.rows).toHaveLength(1);
    return detail!.rows[0]!.attempts;
  }

  const reasons = (attempts: RequestAttempt[]) => attempts.map((a, i) => attemptReason(a, i === attempts.length - 1));

  it("an alias that falls over from a failing deployment: both attempts, before and after the row is written", async () => {
    const res = await chat("smart", "attempts-fallover-1");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-attempts")).toBe("2");
    const expected = [
      {
        deployment: "a-500",
        provider: "openai",
        model: "gpt-4.1",
        status: 500,
        ms: expect.any(Number),
        outcome: "failed",
        reason: "server",
      },
      { deployment: "b", provider: "anthropic", model: "claude-sonnet-4-5", ms: expect.any(Number), outcome: "ok" },
    ];
    // Recorded by this instance and not written yet: the detail already shows them.
    expect(await attemptsOf("attempts-fallover-1")).toEqual(expected);
    await gw.rt.meter.flush();
    const stored = await attemptsOf("attempts-fallover-1");
    expect(stored).toEqual(expected);
    expect(reasons(stored!)).toEqual(["server error, fell over to the next deployment", "answered"]);
  });

  it("a 429 retried after backoff, then a fallback: three attempts in order", async () => {
    expect((await chat("busy", "attempts-retried-1")).status).toBe(200);
    await gw.rt.meter.flush();
    const attempts = await attemptsOf("attempts-retried-1");
    expect(attempts?.map((a) => [a.deployment, a.status, a.outcome])).toEqual([
      ["a-429", 429, "retried"],
      ["a-429", 429, "failed"],
      ["b", undefined, "ok"],
    ]);
    expect(reasons(attempts!)).toEqual([
      "rate-limited, retried after backoff",
      "rate-limited, fell over to the next deployment",
      "answered",
    ]);
  });

  it("a deployment whose breaker is open is recorded as skipped", async () => {
    expect((await chat("tripping", "attempts-trip-1")).status).toBe(200);
    const res = await chat("tripping", "attempts-trip-2");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-attempts")).toBe("1");
    await gw.rt.meter.flush();
    const attempts = await attemptsOf("attempts-trip-2");
    expect(attempts).toEqual([
      {
        deployment: "a-502",
        provider: "openai",
        model: "gpt-4.1",
        ms: 0,
        outcome: "skipped",
        reason: "breaker-open",
      },
      { deployment: "b", provider: "anthropic", model: "claude-sonnet-4-5", ms: expect.any(Number), outcome: "ok" },
    ]);
    expect(reasons(attempts!)).toEqual(["breaker open, skipped", "answered"]);
  });

  it("a model call that failed keeps the message its caller was answered with, under a token window too", async () => {
    // A key under a token window has its tokens reserved, and settled as the call is metered.
    const limited = (await gw.key({ name: "token-limited", tokensMinute: 1_000_000 })).key;
    const res = await gw.request("/v1/chat/completions", {
      method: "POST",
      headers: {
        authorization: `Bearer ${limited}`,
        "content-type": "application/json",
        "x-request-id": "attempts-broken-1",
      },
      body: JSON.stringify({ model: "broken", messages: [{ role: "user", content: "route me" }] }),
    });
    const answered = ((await res.json()) as { error: { message: string } }).error.message;
    expect(res.status).toBeGreaterThanOrEqual(500);
    await gw.rt.meter.flush();
    const detail = await requestDetailView(gw.rt, { operator: true }, "attempts-broken-1");
    expect(answered).toMatch(/\w/);
    expect(detail?.rows[0]?.error).toBe(answered);
  });

  it("a request its first attempt answered stores no attempts", async () => {
    const res = await chat("healthy", "attempts-healthy-1");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-attempts")).toBe("1");
    expect(await attemptsOf("attempts-healthy-1")).toBeNull();
    await gw.rt.meter.flush();
    expect(await attemptsOf("attempts-healthy-1")).toBeNull();
    const rows = await gw.rt.db.prisma.usageEvent.findMany({ where: { requestId: "attempts-healthy-1" } });
    expect(rows.map((r) => r.attempts)).toEqual([null]);
  });
});
