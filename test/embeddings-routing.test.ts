import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultyProvider, type FaultyProvider } from "./fakes/faulty-llm.ts";
import { fakeEmbedding, startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startRoutedGateway, type RoutedGateway } from "./support/routing-gateway.ts";

const MODEL = "text-embedding-3-small";
// The healthy deployment's and OpenAI's own credentials differ, so each fake answers only its own.
const credentials = { EMBED_A_KEY: "a-key", EMBED_B_KEY: "b-key", OPENAI_API_KEY: "oa-key" };

describe("embeddings through the model router: an alias over a failing and a healthy deployment", () => {
  let gw: RoutedGateway;
  let key: string;
  let failing: FaultyProvider;
  let healthy: FakeLlm;
  let openai: FakeLlm;

  beforeAll(async () => {
    [failing, healthy, openai] = await Promise.all([
      startFaultyProvider(),
      startFakeOpenAICompatible({ key: "b-key" }),
      startFakeOpenAICompatible({ key: "oa-key" }),
    ]);
    const failingOn = (mode: string) => ({
      name: `a-${mode}`,
      provider: "openai",
      model: "text-embedding-3-large",
      credential: "EMBED_A_KEY",
      origin: `${failing.url}/${mode}`,
    });
    gw = await startRoutedGateway({
      routing: {
        deployments: [
          ...["500", "429", "400", "reset"].map(failingOn),
          {
            name: "b",
            provider: "openai",
            model: "text-embedding-3-large",
            credential: "EMBED_B_KEY",
            origin: healthy.url,
          },
        ],
        aliases: {
          embed: { strategy: "fallback", deployments: ["a-500", "b"], retries: 0 },
          busy: { strategy: "fallback", deployments: ["a-429", "b"] },
          flaky: { strategy: "fallback", deployments: ["a-reset", "b"], retries: 0 },
          strict: { strategy: "fallback", deployments: ["a-400", "b"] },
        },
      },
      providerEnv: { ...credentials, UPSTREAM_OPENAI_URL: openai.url },
      env: { GATEWAY_BREAKER_THRESHOLD: "1000" },
    });
    key = gw.apiKey;
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([failing?.close(), healthy?.close(), openai?.close()]);
  });

  const post = (route: string, body: unknown, requestId?: string) =>
    gw.request(route, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        ...(requestId && { "x-request-id": requestId }),
      },
      body: JSON.stringify(body),
    });

  it("/v1/embeddings: a 500 from A, the vectors from B, named by the alias, the attempts in the headers", async () => {
    const before = failing.hits.get("500") ?? 0;
    const res = await post("/v1/embeddings", { model: "embed", input: ["alpha beta", "gamma"] });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-provider")).toBe("openai");
    expect(res.headers.get("x-gateway-model")).toBe("text-embedding-3-large");
    expect(res.headers.get("x-gateway-attempts")).toBe("2");
    const body = (await res.json()) as { model: string; data: { index: number; embedding: number[] }[] };
    expect(body.model).toBe("embed");
    expect(body.data.map((d) => d.embedding)).toEqual([fakeEmbedding("alpha beta"), fakeEmbedding("gamma")]);
    expect(failing.hits.get("500")).toBe(before + 1);
    // B was called on its own credential and origin, with its own model id.
    const sent = healthy.requests.at(-1)!;
    expect(sent.path).toBe("/v1/embeddings");
    expect(sent.headers.authorization).toBe("Bearer b-key");
    expect(sent.body).toMatchObject({ model: "text-embedding-3-large", input: ["alpha beta", "gamma"] });
  });

  it("retries a 429 on A, and falls over on a connection reset", async () => {
    const busy = await post("/v1/embeddings", { model: "busy", input: "a" });
    expect(busy.status).toBe(200);
    expect(busy.headers.get("x-gateway-attempts")).toBe("3");
    expect(failing.hits.get("429")).toBe(2);
    const flaky = await post("/v1/embeddings", { model: "flaky", input: "a" });
    expect(flaky.status).toBe(200);
    expect(flaky.headers.get("x-gateway-attempts")).toBe("2");
    expect(failing.hits.get("reset")).toBe(1);
  });

  it("does not retry nor fall over on a 400: the client gets it, in its surface's shape, and B is never asked", async () => {
    const asked = healthy.requests.length;
    const compat = await post("/v1/embeddings", { model: "strict", input: "a" });
    expect(compat.status).toBe(400);
    expect(compat.headers.get("x-gateway-attempts")).toBe("1");
    expect((await compat.json()).error.message).toContain("failing with 400 as asked");
    const llm = await post("/v1/llm/embed", { text: "a", model: "strict" });
    expect(llm.status).toBe(400);
    expect(llm.headers.get("x-gateway-attempts")).toBe("1");
    expect((await llm.json()).error).toContain("failing with 400 as asked");
    expect(failing.hits.get("400")).toBe(2);
    expect(healthy.requests.length).toBe(asked);
  });

  it("/v1/llm/embed, embed-batch and similarity take the alias too; similarity's two texts go to one deployment", async () => {
    const one = await post("/v1/llm/embed", { text: "hello world", model: "embed" });
    expect(one.status).toBe(200);
    expect(one.headers.get("x-gateway-attempts")).toBe("2");
    expect(await one.json()).toEqual({
      embedding: fakeEmbedding("hello world"),
      dimensions: 32,
      model: "text-embedding-3-large",
    });
    const batch = await post("/v1/llm/embed-batch", { texts: ["one", "two"], model: "embed" });
    expect(await batch.json()).toMatchObject({ count: 2, model: "text-embedding-3-large" });
    const before = failing.hits.get("500")!;
    const similar = await post("/v1/llm/similarity", { text1: "the cat sat", text2: "the cat sat", model: "embed" });
    expect(similar.status).toBe(200);
    expect(similar.headers.get("x-gateway-attempts")).toBe("2");
    expect(await similar.json()).toMatchObject({ similarity: 1, text1_tokens: 3, text2_tokens: 3 });
    // One attempt on A (both texts sent there, both failed), then both texts on B.
    expect(failing.hits.get("500")).toBe(before + 2);
  });

  it("meters only the attempt that answered: one event, B's provider, model and tokens", async () => {
    const requestId = "embeddings-routing-metered-1";
    const res = await post("/v1/embeddings", { model: "embed", input: "three short words" }, requestId);
    expect(res.status).toBe(200);
    await gw.rt.meter.flush();
    const events = await gw.rt.db.prisma.usageEvent.findMany({ where: { requestId } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      provider: "openai",
      model: "text-embedding-3-large",
      status: 200,
      promptTokens: 3,
    });
  });

  it("answers today's forms as before: a bare model id or openai/… on OpenAI's own key, now with the headers", async () => {
    for (const model of [MODEL, `openai/${MODEL}`]) {
      const res = await post("/v1/embeddings", { model, input: "alpha" });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-gateway-provider")).toBe("openai");
      expect(res.headers.get("x-gateway-attempts")).toBe("1");
      expect(await res.json()).toEqual({
        object: "list",
        data: [{ object: "embedding", index: 0, embedding: fakeEmbedding("alpha") }],
        model: `openai/${MODEL}`,
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
      expect(openai.requests.at(-1)!.headers.authorization).toBe("Bearer oa-key");
    }
    const llm = await post("/v1/llm/embed", { text: "hello world" });
    expect(await llm.json()).toEqual({ embedding: fakeEmbedding("hello world"), dimensions: 32, model: MODEL });
    expect(openai.requests.at(-1)!.body).toMatchObject({ model: MODEL, input: ["hello world"] });
    const refused = await post("/v1/embeddings", { model: "xai/grok-4", input: "a" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toBe("embeddings come from openai or ollama, not xai");
  });
});
