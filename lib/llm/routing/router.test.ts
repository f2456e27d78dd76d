import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GatewayError } from "../../errors.ts";
import { CallStop } from "../../upstream/call-stop.ts";
import { upstreamStatusError } from "../../upstream/http.ts";
import type { ChatTarget } from "../call/index.ts";
import { MemoryBreakerBoard } from "./breaker.ts";
import { parseRoutingConfig } from "./config.ts";
import { buildRouting } from "./deployments.ts";
import { ModelRouter, parseRouteHeader, type RouterOptions } from "./router.ts";

const env = { OPENAI_API_KEY: "oa", OPENAI_KEY_2: "oa2", ANTHROPIC_API_KEY: "an" };

const routing = () =>
  buildRouting(
    parseRoutingConfig(
      JSON.stringify({
        deployments: [
          { name: "a", provider: "openai", model: "gpt-4.1", origin: "http://a.example" },
          { name: "a2", provider: "openai", model: "gpt-4.1", credential: "OPENAI_KEY_2" },
          { name: "b", provider: "anthropic", model: "claude-sonnet-4-5" },
        ],
        aliases: {
          smart: { deployments: ["a", "b"] },
          patient: { deployments: ["a", "b"], retries: 3 },
          spread: {
            strategy: "weighted",
            deployments: [
              { name: "a", weight: 1 },
              { name: "b", weight: 3 },
            ],
          },
        },
      }),
      "gateway.config.json",
      env,
    ),
    env,
  );

function setup(options: Partial<RouterOptions> = {}) {
  let clock = 1_000_000;
  const waits: number[] = [];
  const breakers = new MemoryBreakerBoard({ threshold: 2, cooldownMs: 10_000, now: () => clock });
  const observed: string[] = [];
  const router = new ModelRouter(routing(), {
    breakers,
    now: () => clock,
    random: () => 0,
    wait: async (ms) => {
      waits.push(ms);
      clock += ms;
      return true;
    },
    observe: (label, outcome) => observed.push(`${label}:${outcome}`),
    ...options,
  });
  const stop = new CallStop();
  const run = <T>(model: string, attempt: (t: ChatTarget, s: CallStop) => Promise<T>, route?: string) => {
    const plan = router.plan(model, { id: "chatcmpl-1", ...(route !== undefined && { route }) });
    return { plan, running: router.run(plan, attempt, stop, clock + 60_000) };
  };
  return { router, breakers, waits, observed, run, tick: (ms: number) => (clock += ms) };
}

const status = (code: number, retryAfter?: string) => upstreamStatusError("p", code, retryAfter, "upstream said no");
const answers = (t: ChatTarget) => Promise.resolve(`${t.entry.name}:${t.modelId}`);

beforeEach(() => {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
});
afterEach(() => vi.unstubAllEnvs());

describe("ModelRouter.plan", () => {
  it("an alias's deployments in its order, each with its own credential and origin, named as the client asked", () => {
    const { router } = setup();
    const plan = router.plan("smart", { id: "x" });
    expect(plan.model).toBe("smart");
    expect(plan.candidates.map((c) => [c.name, c.entry.name, c.modelId])).toEqual([
      ["a", "openai", "gpt-4.1"],
      ["b", "anthropic", "claude-sonnet-4-5"],
    ]);
    expect(plan.candidates[0]!.entry.fixedOrigin).toBe("http://a.example");
    expect(plan.retries).toBe(1);
    expect(router.plan("patient", { id: "x" }).retries).toBe(3);
  });

  it("provider/model goes to that provider, with the declared deployments of that model as alternates", () => {
    const { router } = setup();
    const plan = router.plan("openai/gpt-4.1", { id: "x" });
    expect(plan.candidates.map((c) => c.name)).toEqual(["openai/gpt-4.1", "a", "a2"]);
    expect(plan.candidates[2]!.entry.credential).toBe("OPENAI_KEY_2");
    expect(router.plan("anthropic/claude-haiku-4-5", { id: "x" }).candidates.map((c) => c.name)).toEqual([
      "anthropic/claude-haiku-4-5",
    ]);
  });

  it("keeps today's reading of other names: a bare id to its provider, an unknown provider a 400", () => {
    const { router } = setup();
    expect(router.plan("gpt-4.1-mini", { id: "x" }).model).toBe("openai/gpt-4.1-mini");
    expect(() => router.plan("nope/x", { id: "x" })).toThrow(/unknown provider 'nope'/);
  });

  it("x-gateway-route overrides the strategy or pins a deployment the alias lists", () => {
    const { router } = setup();
    expect(router.plan("spread", { id: "x" }).candidates.map((c) => c.name)).toEqual(["a", "b"]);
    expect(router.plan("smart", { id: "x", route: "deployment=b" }).candidates.map((c) => c.name)).toEqual(["b"]);
    expect(() => router.plan("smart", { id: "x", route: "deployment=a2" })).toThrow(/'a2' does not serve 'smart'/);
    expect(parseRouteHeader("least_in_flight")).toEqual({ strategy: "least-in-flight" });
    expect(() => parseRouteHeader("fastest")).toThrow(GatewayError);
  });

  it("a key's model rules narrow the plan: a bare id is judged as provider/model, a pin cannot reach a denied deployment", () => {
    const { router } = setup();
    const rules = { allow: [], deny: ["openai/*"] };
    expect(router.plan("smart", { id: "x", rules }).candidates.map((c) => c.name)).toEqual(["b"]);
    expect(() => router.plan("gpt-4.1", { id: "x", rules })).toThrow(
      "model 'openai/gpt-4.1' is refused by this key's rule deny 'openai/*'",
    );
    expect(() => router.plan("smart", { id: "x", route: "deployment=a", rules })).toThrow(
      "model 'smart' is refused by this key's rule deny 'openai/*'",
    );
  });
});

describe("ModelRouter.run", () => {
  it("the healthy path: one attempt, recorded ok", async () => {
    const { run, observed } = setup();
    const { plan, running } = run("smart", answers);
    const routed = await running;
    expect(routed.value).toBe("openai:gpt-4.1");
    expect(plan.attempts).toEqual([{ deployment: "a", provider: "openai", model: "gpt-4.1", ms: 0, outcome: "ok" }]);
    expect(observed).toEqual(["a:ok"]);
  });

  it("keeps statistics for the routing file's deployments only, not for each model name a client makes up", async () => {
    const { run, router } = setup({ now: () => 0 });
    await run("openai/gpt-4.1", answers).running;
    await run("smart", answers).running;
    await run("openai/made-up-1", (t) => {
      expect(router.stats.inFlight("openai/made-up-1")).toBe(0);
      return answers(t);
    }).running;
    expect(router.stats.latencyMs("openai/made-up-1")).toBeUndefined();
    expect(router.stats.latencyMs("a")).toBe(0);
  });

  it("retries a 429 on the same deployment after its Retry-After, then falls over to the next", async () => {
    const { run, waits } = setup();
    const seen: string[] = [];
    const { plan, running } = run("smart", async (t) => {
      seen.push(t.entry.name);
      if (t.entry.name === "openai") throw status(429, "2");
      return answers(t);
    });
    expect((await running).value).toBe("anthropic:claude-sonnet-4-5");
    expect(seen).toEqual(["openai", "openai", "anthropic"]);
    expect(waits).toEqual([2000]);
    expect(plan.attempts.map((a) => [a.deployment, a.outcome, a.status])).toEqual([
      ["a", "retried", 429],
      ["a", "failed", 429],
      ["b", "ok", undefined],
    ]);
  });

  it("an alias's retries say how often one deployment is tried again", async () => {
    const { run } = setup();
    let calls = 0;
    const { running } = run("patient", async () => {
      calls++;
      throw status(503);
    });
    await expect(running).rejects.toMatchObject({ upstream: { status: 503 } });
    // patient: 4 tries on a, then 4 on b.
    expect(calls).toBe(8);
  });

  it("never retries nor falls over on the request's own fault, and the breaker counts it as health", async () => {
    const { run, breakers } = setup();
    let calls = 0;
    const { plan, running } = run("smart", async () => {
      calls++;
      throw status(400);
    });
    await expect(running).rejects.toMatchObject({ status: 400 });
    expect(calls).toBe(1);
    expect(plan.attempts.map((a) => a.outcome)).toEqual(["failed"]);
    expect(breakers.state("a")).toBe("closed");
  });

  it("a connection error moves on; when every deployment fails, the last failure is what the client gets", async () => {
    const { run } = setup();
    const { running } = run("smart", async (t) => {
      throw t.entry.name === "openai" ? new GatewayError(502, "openai could not be reached") : status(529);
    });
    await expect(running).rejects.toMatchObject({ upstream: { status: 529 } });
  });

  it("an open breaker is skipped without an attempt, and its half-open probe is taken only when tried", async () => {
    const { run, breakers, tick } = setup();
    const failA = (t: ChatTarget) => (t.entry.name === "openai" ? Promise.reject(status(500)) : answers(t));
    await run("smart", failA).running;
    expect(breakers.state("a")).toBe("open");
    const seen: string[] = [];
    const { plan, running } = run("smart", (t) => {
      seen.push(t.entry.name);
      return answers(t);
    });
    await running;
    expect(seen).toEqual(["anthropic"]);
    expect(plan.attempts[0]).toMatchObject({ deployment: "a", outcome: "skipped", reason: "breaker-open" });
    tick(10_000);
    // Pinned to b, the request never reaches a: a's one probe stays for a request that does.
    await run("smart", answers, "deployment=b").running;
    expect(breakers.state("a")).toBe("half-open");
    const probe = run("smart", answers);
    expect((await probe.running).value).toBe("openai:gpt-4.1");
    expect(breakers.state("a")).toBe("closed");
  });

  it("a refusal of the gateway's own, thrown before the deployment was asked, does not close a half-open breaker", async () => {
    const { run, breakers, tick } = setup();
    const failA = (t: ChatTarget) => (t.entry.name === "openai" ? Promise.reject(status(500)) : answers(t));
    await run("smart", failA).running;
    tick(10_000);
    const refused = run("smart", () => Promise.reject(new GatewayError(400, "tools are not supported by openai")));
    await expect(refused.running).rejects.toThrow(/not supported/);
    expect(breakers.state("a")).toBe("half-open");
    // Its probe was given back: the next request may take it.
    expect((await run("smart", answers).running).value).toBe("openai:gpt-4.1");
    expect(breakers.state("a")).toBe("closed");
  });

  it("with every breaker open the request fails at once with a 503 naming the model", async () => {
    const { run } = setup();
    await run("smart", () => Promise.reject(status(500))).running.catch(() => undefined);
    const { running } = run("smart", answers);
    await expect(running).rejects.toThrow(/every deployment serving 'smart' is failing/);
  });

  it("skips a deployment whose credential is not set; none set is today's 503 naming the variable", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    const { run } = setup();
    await expect(run("openai/gpt-4o", answers).running).rejects.toThrow(/openai is not configured: set OPENAI_API_KEY/);
    const { plan, running } = run("openai/gpt-4.1", answers);
    // a is on the provider's own variable too; a2 has its own.
    expect((await running).candidate.name).toBe("a2");
    expect(plan.attempts.map((a) => [a.deployment, a.outcome, a.reason])).toEqual([
      ["openai/gpt-4.1", "skipped", "not-configured"],
      ["a", "skipped", "not-configured"],
      ["a2", "ok", undefined],
    ]);
  });

  it("stops when the client leaves, and gives each attempt its own stop that follows the request's", async () => {
    const { router } = setup();
    const request = new CallStop();
    const plan = router.plan("smart", { id: "x" });
    const stops: CallStop[] = [];
    const running = router.run(
      plan,
      (_t, stop) => {
        stops.push(stop);
        request.leave();
        return Promise.reject(stop.reason);
      },
      request,
      Date.now() + 60_000,
    );
    await expect(running).rejects.toMatchObject({ name: "AbortError" });
    expect(stops).toHaveLength(1);
    expect(stops[0]!.clientLeft).toBe(true);
  });

  it("moves on rather than sleeping past the deadline on a long Retry-After", async () => {
    const { run, waits } = setup();
    const { plan, running } = run("smart", (t) =>
      t.entry.name === "openai" ? Promise.reject(status(429, "3600")) : answers(t),
    );
    await running;
    expect(waits).toEqual([]);
    expect(plan.attempts.map((a) => a.outcome)).toEqual(["failed", "ok"]);
  });
});

describe("ModelRouter.addFallbacks", () => {
  // Refuses the model anthropic/claude-sonnet-4-5 by name, and drops deployment b (of that model) from smart.
  const rules = { allow: [], deny: ["anthropic/claude-sonnet-4-5"] };
  const fallbacks = ["anthropic/claude-sonnet-4-5", "openai/gpt-4.1"];
  const failA = (t: ChatTarget) =>
    t.entry.fixedOrigin === "http://a.example" ? Promise.reject(status(500)) : answers(t);

  function planned() {
    const { router, tick } = setup();
    const plan = router.plan("smart", { id: "x", rules });
    router.addFallbacks(plan, fallbacks, { id: "x", rules });
    const run = (attempt: (t: ChatTarget) => Promise<string>) =>
      router.run(plan, attempt, new CallStop(), tick(0) + 60_000);
    return { plan, run };
  }

  it("passes over a fallback the key's rules refuse, recording its deployments as skipped where it stood", async () => {
    const { plan, run } = planned();
    expect(plan.candidates.map((c) => [c.name, c.place])).toEqual([
      ["a", undefined],
      ["openai/gpt-4.1", 2],
      ["a", 2],
      ["a2", 2],
    ]);
    expect((await run(failA)).value).toBe("openai:gpt-4.1");
    expect(plan.attempts.map((a) => [a.deployment, a.outcome, a.reason])).toEqual([
      ["a", "retried", "server"],
      ["a", "failed", "server"],
      ["anthropic/claude-sonnet-4-5", "skipped", "denied-by-key"],
      ["b", "skipped", "denied-by-key"],
      ["openai/gpt-4.1", "ok", undefined],
    ]);
  });

  it("records nothing of it when the model's own deployment answers", async () => {
    const { plan, run } = planned();
    expect((await run(answers)).value).toBe("openai:gpt-4.1");
    expect(plan.attempts.map((a) => [a.deployment, a.outcome])).toEqual([["a", "ok"]]);
  });

  it("when every allowed deployment fails, the client gets the last failure, not the refusal", async () => {
    const { router, tick } = setup();
    const plan = router.plan("smart", { id: "x", rules });
    router.addFallbacks(plan, ["anthropic/claude-sonnet-4-5"], { id: "x", rules });
    const running = router.run(plan, () => Promise.reject(status(500)), new CallStop(), tick(0) + 60_000);
    await expect(running).rejects.toMatchObject({ upstream: { status: 500 } });
    expect(plan.attempts.map((a) => [a.deployment, a.outcome])).toEqual([
      ["a", "retried"],
      ["a", "failed"],
      ["anthropic/claude-sonnet-4-5", "skipped"],
      ["b", "skipped"],
    ]);
  });

  it("still refuses the request for anything but the key's rules: an unknown provider is a 400", () => {
    const { router } = setup();
    const plan = router.plan("smart", { id: "x", rules });
    expect(() => router.addFallbacks(plan, ["acme/x"], { id: "x", rules })).toThrow(/unknown provider 'acme'/);
  });
});
