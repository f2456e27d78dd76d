import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { limitBackends } from "./support/backends.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";

/**
 * The operator's policy for hits and the minute limit: by default a hit is a request like any other;
 * with LLM_CACHE_HITS_FREE_OF_MINUTE_LIMIT=true it still counts against the day, not the minute.
 */
describe.each(limitBackends)("response-cache hits and the minute limit (%s limits)", (limits) => {
  let fake: FakeLlm;
  const gateways: Record<"counted" | "free", TestGateway | undefined> = { counted: undefined, free: undefined };

  beforeAll(async () => {
    fake = await startFakeOpenAICompatible({ key: "xai-k", reply: "Kept for later." });
    Object.assign(process.env, { XAI_API_KEY: "xai-k", UPSTREAM_XAI_URL: fake.url });
    gateways.counted = await startTestGateway({ limits });
    gateways.free = await startTestGateway({ limits, env: { LLM_CACHE_HITS_FREE_OF_MINUTE_LIMIT: "true" } });
  });
  afterAll(async () => {
    await gateways.counted?.close();
    await gateways.free?.close();
    await fake?.close();
  });

  async function askFive(gw: TestGateway) {
    // A key of its own, 3 requests a minute: the Redis counters outlive test runs, and a new key starts at 0.
    const { key } = await gw.key({ minute: 3, day: 100 });
    const ask = () =>
      gw.request("/v1/chat/completions", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "cache-control": "max-age=600" },
        body: JSON.stringify({ model: "xai/grok-4", messages: [{ role: "user", content: "Cache me." }] }),
      });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await ask());
    return answers;
  }

  it("counts a hit against the minute by default", async () => {
    const answers = await askFive(gateways.counted!);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    expect(answers[1]!.headers.get("x-gateway-cache")).toBe("hit");
    expect(answers[2]!.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("takes hits back out of the minute when the operator frees them, and says so in the headers", async () => {
    const answers = await askFive(gateways.free!);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.slice(1).map((r) => r.headers.get("x-gateway-cache"))).toEqual(["hit", "hit", "hit", "hit"]);
    // The miss used one of the 3; each hit is given back: 2 left after every one of them.
    expect(answers.slice(1).map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["2", "2", "2", "2"]);
  });
});
