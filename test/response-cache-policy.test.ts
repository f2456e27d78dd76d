import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startRoutedGateway, type RoutedGateway } from "./support/routing-gateway.ts";

/** An alias's cache policy in the routing file: calls to it use the cache without asking, as the operator chose. */
describe("the response cache by an alias's policy", () => {
  let gw: RoutedGateway;
  let fake: FakeLlm;
  let other: string;

  beforeAll(async () => {
    fake = await startFakeOpenAICompatible({ key: "p-key", reply: "Policy answers." });
    const deployment = { name: "d", provider: "openai", model: "gpt-4.1", credential: "POLICY_KEY", origin: fake.url };
    gw = await startRoutedGateway({
      routing: {
        deployments: [deployment],
        aliases: {
          mine: { deployments: ["d"], cache: { max_age: 600 } },
          everyone: { deployments: ["d"], cache: { max_age: 600, shared: true } },
          plain: { deployments: ["d"] },
        },
      },
      providerEnv: { POLICY_KEY: "p-key" },
    });
    other = (await gw.key()).key;
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const ask = (key: string, model: string, content: string, cacheControl?: string) =>
    gw.request("/v1/chat/completions", {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        ...(cacheControl && { "cache-control": cacheControl }),
      },
      body: JSON.stringify({ model, messages: [{ role: "user", content }] }),
    });
  const state = (res: Response) => res.headers.get("x-gateway-cache");

  it("caches an alias's calls that did not ask, per key unless the alias is shared", async () => {
    expect(state(await ask(gw.apiKey, "mine", "q1"))).toBe("miss");
    expect(state(await ask(gw.apiKey, "mine", "q1"))).toBe("hit");
    // Not shared: another key's entries are its own.
    expect(state(await ask(other, "mine", "q1"))).toBe("miss");

    expect(state(await ask(gw.apiKey, "everyone", "q2"))).toBe("miss");
    const shared = await ask(other, "everyone", "q2");
    expect(state(shared)).toBe("hit");
    expect(((await shared.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe(
      "Policy answers.",
    );
  });

  it("lets a request's own Cache-Control win over the policy, and leaves an alias without one alone", async () => {
    await ask(gw.apiKey, "mine", "q3");
    const sent = fake.requests.length;
    expect(state(await ask(gw.apiKey, "mine", "q3", "no-store"))).toBeNull();
    expect(state(await ask(gw.apiKey, "mine", "q3", "no-cache"))).toBe("miss");
    expect(fake.requests.length).toBe(sent + 2);
    expect(state(await ask(gw.apiKey, "plain", "q3"))).toBeNull();
    expect(state(await ask(gw.apiKey, "plain", "q3"))).toBeNull();
  });

  it("refuses a policy the routing file gets wrong, naming where", async () => {
    const bad = startRoutedGateway({
      routing: {
        deployments: [{ name: "d", provider: "openai", model: "gpt-4.1", credential: "POLICY_KEY", origin: fake.url }],
        aliases: { wrong: { deployments: ["d"], cache: { max_age: 0 } } },
      },
      providerEnv: { POLICY_KEY: "p-key" },
    });
    await expect(bad).rejects.toThrow(/aliases\.wrong\.cache\.max_age/);
  });
});
