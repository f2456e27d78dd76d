import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CallStop } from "../../upstream/call-stop.ts";
import { upstreamStatusError } from "../../upstream/http.ts";
import type { ChatTarget } from "../call/index.ts";
import { providerApiKey } from "../models.ts";
import { MemoryBreakerBoard } from "./breaker.ts";
import { parseRoutingConfig } from "./config.ts";
import { buildRouting } from "./deployments.ts";
import { withOwnerKeys, type OwnerKeyLookup } from "./owner-keys.ts";
import { ModelRouter } from "./router.ts";

const env = { OPENAI_API_KEY: "operator-oa", OPENAI_KEY_2: "operator-oa2", ANTHROPIC_API_KEY: "operator-an" };

function setup() {
  const routing = buildRouting(
    parseRoutingConfig(
      JSON.stringify({
        deployments: [
          { name: "a", provider: "openai", model: "gpt-4.1" },
          { name: "a2", provider: "openai", model: "gpt-4.1", credential: "OPENAI_KEY_2" },
          { name: "b", provider: "anthropic", model: "claude-sonnet-4-5" },
        ],
        aliases: { smart: { deployments: ["a", "a2", "b"] } },
      }),
      "gateway.config.json",
      env,
    ),
    env,
  );
  const breakers = new MemoryBreakerBoard({ threshold: 2, cooldownMs: 10_000 });
  const router = new ModelRouter(routing, { breakers, retries: 0, wait: async () => true });
  return { router, breakers };
}

const aliceKeys: OwnerKeyLookup = async (provider) => (provider === "openai" ? "alice-oa" : undefined);
const noErrors = () => {
  throw new Error("no lookup should fail here");
};
/** What each attempt would send: deployment name and key. */
const sent = (t: ChatTarget) => `${t.entry.name}:${providerApiKey(t.entry)}`;

beforeEach(() => {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
});
afterEach(() => vi.unstubAllEnvs());

describe("withOwnerKeys", () => {
  it("prefer: the owner's key once before the provider's deployments, the operator's pool after it", async () => {
    const { router } = setup();
    const candidates = await withOwnerKeys(
      router.plan("smart", { id: "x" }).candidates,
      "alice",
      "prefer",
      aliceKeys,
      noErrors,
    );
    expect(candidates.map((c) => [c.name, c.owner ?? "operator", providerApiKey(c.entry)])).toEqual([
      ["a", "alice", "alice-oa"],
      ["a", "operator", "operator-oa"],
      ["a2", "operator", "operator-oa2"],
      ["b", "operator", "operator-an"],
    ]);
  });

  it("only: the owner's key instead of the operator's for that provider; other providers keep the operator's", async () => {
    const { router } = setup();
    const candidates = await withOwnerKeys(
      router.plan("smart", { id: "x" }).candidates,
      "alice",
      "only",
      aliceKeys,
      noErrors,
    );
    expect(candidates.map((c) => [c.name, providerApiKey(c.entry)])).toEqual([
      ["a", "alice-oa"],
      ["b", "operator-an"],
    ]);
  });

  it("off, or an owner with no key: the plan as it was, nothing asked", async () => {
    const { router } = setup();
    const plan = router.plan("smart", { id: "x" });
    const lookup = vi.fn(aliceKeys);
    expect(await withOwnerKeys(plan.candidates, "alice", "off", lookup, noErrors)).toEqual(plan.candidates);
    expect(lookup).not.toHaveBeenCalled();
    expect(await withOwnerKeys(plan.candidates, "bob", "prefer", async () => undefined, noErrors)).toEqual(
      plan.candidates,
    );
  });

  it("a lookup that fails: the operator's keys under prefer (reported), a 503 under only", async () => {
    const { router } = setup();
    const plan = router.plan("smart", { id: "x" });
    const failing = async () => Promise.reject(new Error("database away"));
    const reported: string[] = [];
    const kept = await withOwnerKeys(plan.candidates, "alice", "prefer", failing, (_err, p) => reported.push(p));
    expect(kept).toEqual(plan.candidates);
    expect(reported).toEqual(["openai", "anthropic"]);
    await expect(withOwnerKeys(plan.candidates, "alice", "only", failing, noErrors)).rejects.toMatchObject({
      status: 503,
    });
  });

  it("never puts the key on the shared entry: the operator's deployments still send the operator's key", async () => {
    const { router } = setup();
    await withOwnerKeys(router.plan("smart", { id: "x" }).candidates, "alice", "prefer", aliceKeys, noErrors);
    expect(router.plan("smart", { id: "y" }).candidates.map((c) => c.entry.apiKey)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("the router on an owner's key", () => {
  it("moves on to the operator's key when the provider refuses the owner's (401), and counts it on the owner's breaker alone", async () => {
    const { router, breakers } = setup();
    const stop = new CallStop();
    for (let i = 0; i < 3; i++) {
      const plan = router.plan("smart", { id: "x" });
      plan.candidates = await withOwnerKeys(plan.candidates, "alice", "prefer", aliceKeys, noErrors);
      const tried: string[] = [];
      const { value } = await router.run(
        plan,
        async (t) => {
          tried.push(sent(t));
          if (t.entry.apiKey) throw upstreamStatusError("openai", 401, undefined, "invalid key");
          return sent(t);
        },
        stop,
        Date.now() + 60_000,
      );
      expect(value).toBe("openai:operator-oa");
      // The owner's breaker (threshold 2) opens after two refusals: the third call skips their key.
      expect(tried).toEqual(i < 2 ? ["openai:alice-oa", "openai:operator-oa"] : ["openai:operator-oa"]);
      expect(plan.attempts[0]).toMatchObject(
        i < 2 ? { deployment: "a", outcome: "failed", reason: "credentials", ownerKey: true } : { outcome: "skipped" },
      );
    }
    expect(breakers.state("a")).toBe("closed");
    expect(breakers.state("a@owner:alice")).toBe("open");
  });
});
