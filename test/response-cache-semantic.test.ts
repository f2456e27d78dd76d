import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../lib/app.ts";
import { loadConfig } from "../lib/config.ts";
import { createKey } from "../lib/gateway/keys/key-changes.ts";
import { createRuntime, type Runtime } from "../lib/gateway/runtime/runtime.ts";
import type { CacheUse } from "../lib/usage/usage-event.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { databaseBackends, freshPostgres, tempDir } from "./support/backends.ts";
import { startRoutedGateway, writeRoutingFile, type RoutedGateway } from "./support/routing-gateway.ts";
import { serveGateway, type ServedGateway } from "./support/serve-gateway.ts";

// The fake's embeddings hash words into 32 dimensions (test/fakes/llm.ts fakeEmbedding): a question
// with the same words in another case, spacing or punctuation is the same vector (similarity 1); one
// more word ("town") is about 0.94 from it; a question on something else is far from both.
const CAPITAL = "What is the capital of France?";
const CAPITAL_AGAIN = "what is   the capital of france";
const CAPITAL_TOWN = "What is the capital town of France?";
const EVEREST = "How tall is Mount Everest?";

const routing = (fakeUrl: string) => ({
  deployments: [
    { name: "chat", provider: "openai", model: "gpt-4.1", credential: "SEM_KEY", origin: fakeUrl },
    { name: "emb", provider: "openai", model: "text-embedding-3-small", credential: "SEM_KEY", origin: fakeUrl },
  ],
  aliases: {
    near: { deployments: ["chat"], cache: { max_age: 600, semantic: { threshold: 0.9, embedding_model: "embedder" } } },
    strict: { deployments: ["chat"], cache: { max_age: 600, semantic: true } },
    exact: { deployments: ["chat"], cache: { max_age: 600 } },
    plain: { deployments: ["chat"] },
    embedder: { deployments: ["emb"] },
  },
});

type Completion = { choices: { message: { content: string } }[] };

/** The semantic cache, by an alias's policy: a question near enough in meaning to one answered gets its answer. */
describe("the semantic response cache", () => {
  let gw: RoutedGateway;
  let fake: FakeLlm;

  beforeAll(async () => {
    fake = await startFakeOpenAICompatible({ key: "sem-k", reply: "Paris, of course." });
    gw = await startRoutedGateway({
      routing: routing(fake.url),
      providerEnv: { SEM_KEY: "sem-k" },
      env: { LLM_SEMANTIC_CACHE_EMBEDDING_MODEL: "embedder" },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const ask = (model: string, content: string, extra: object = {}, key = gw.apiKey) =>
    gw.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content }], temperature: 0, ...extra }),
    });
  const state = (res: Response) => res.headers.get("x-gateway-cache");
  const chats = () => fake.requests.filter((r) => r.path.endsWith("/chat/completions")).length;
  const embeddings = () => fake.requests.filter((r) => r.path.endsWith("/embeddings"));

  async function usageOf(requestId: string) {
    await gw.rt.meter.flush();
    return gw.rt.db.prisma.usageEvent.findFirst({ where: { requestId } });
  }

  it("answers a question worded differently with the earlier answer, saying how similar, and meters the embedding", async () => {
    const first = await ask("near", CAPITAL);
    expect(state(first)).toBe("miss");
    expect(((await first.json()) as Completion).choices[0]!.message.content).toBe("Paris, of course.");
    const sent = chats();

    const again = await ask("near", CAPITAL_AGAIN);
    expect(again.status).toBe(200);
    expect(state(again)).toBe("semantic-hit");
    expect(Number(again.headers.get("x-gateway-cache-similarity"))).toBeGreaterThan(0.99);
    expect(((await again.json()) as Completion).choices[0]!.message.content).toBe("Paris, of course.");
    expect(chats()).toBe(sent);

    // The prompt was embedded by the embedding alias's deployment, with its credential, as the prompt reads.
    const embedded = embeddings().at(-1)!;
    expect(embedded.headers.authorization).toBe("Bearer sem-k");
    expect(embedded.body).toMatchObject({
      model: "text-embedding-3-small",
      input: ["user: what is the capital of france"],
    });

    // The hit cost nothing; the embedding is metered to the key beside it.
    const requestId = again.headers.get("x-request-id")!;
    const hit = await usageOf(requestId);
    expect(hit?.cache as CacheUse).toMatchObject({ state: "hit", similarity: expect.any(Number), provider: "openai" });
    expect(hit?.promptTokens ?? 0).toBe(0);
    const embedding = await usageOf(`${requestId}:semantic-cache`);
    expect(embedding).toMatchObject({ method: "EMBED", provider: "openai", model: "text-embedding-3-small" });
    expect(embedding!.promptTokens).toBeGreaterThan(0);
    expect(embedding!.keyId).toBe(hit!.keyId);
  });

  it("answers only at or above the alias's threshold", async () => {
    await ask("strict", CAPITAL);
    // About 0.93: above near's 0.9, below strict's default 0.95.
    expect(state(await ask("near", CAPITAL_TOWN))).toBe("semantic-hit");
    expect(state(await ask("strict", CAPITAL_TOWN))).toBe("miss");
    expect(state(await ask("near", EVEREST))).toBe("miss");
  });

  it("matches only deterministic questions without tools, and never another key's", async () => {
    await ask("near", "Name a primary colour.");
    const embedded = embeddings().length;
    // No temperature is OpenAI's default of 1: exact cache only, nothing embedded.
    expect(state(await ask("near", "name a primary colour", { temperature: undefined }))).toBe("miss");
    const tools = [{ type: "function", function: { name: "paint", parameters: { type: "object" } } }];
    expect(state(await ask("near", "name a primary colour", { tools }))).toBe("miss");
    expect(embeddings().length).toBe(embedded);

    const other = (await gw.key()).key;
    expect(state(await ask("near", "name a primary colour", {}, other))).toBe("miss");
    // An alias with an exact cache only embeds nothing.
    await ask("exact", "Name a primary colour.");
    expect(state(await ask("exact", "name a primary colour"))).toBe("miss");
  });

  it("follows the calling key's own policy where the alias has none, exact and semantic", async () => {
    const exactKey = (await gw.key({ cacheMaxAge: 600 })).key;
    expect(state(await ask("plain", "Spell the word cat.", {}, exactKey))).toBe("miss");
    expect(state(await ask("plain", "Spell the word cat.", {}, exactKey))).toBe("hit");
    expect(state(await ask("plain", "spell the word cat", {}, exactKey))).toBe("miss");

    const semanticKey = (await gw.key({ cacheMaxAge: 600, cacheSemantic: true })).key;
    expect(state(await ask("plain", "Spell the word dog.", {}, semanticKey))).toBe("miss");
    expect(state(await ask("plain", "spell the word dog", {}, semanticKey))).toBe("semantic-hit");
    // A key without a policy, on an alias without one, never touches the cache.
    expect(state(await ask("plain", "Spell the word dog."))).toBeNull();
  });

  it("replays a semantic hit in the asking surface's form: an Anthropic stream on /v1/messages", async () => {
    await ask("near", "Which river runs through Paris?");
    const client = new Anthropic({ apiKey: gw.apiKey, baseURL: gw.url, maxRetries: 0 });
    const events: string[] = [];
    let text = "";
    const stream = client.messages.stream({
      model: "near",
      max_tokens: 1024,
      temperature: 0,
      messages: [{ role: "user", content: "which river runs through paris" }],
    });
    for await (const event of stream) {
      events.push(event.type);
      if (event.type === "content_block_delta" && event.delta.type === "text_delta") text += event.delta.text;
    }
    expect(text).toBe("Paris, of course.");
    expect(events[0]).toBe("message_start");
    expect(events.at(-1)).toBe("message_stop");
  });

  it("forgets the caller's vectors with DELETE /v1/cache, and the routing file refuses a bad threshold", async () => {
    await ask("near", "Who wrote Les Misérables?");
    expect(state(await ask("near", "who wrote les misérables"))).toBe("semantic-hit");
    const cleared = await gw.request("/v1/cache", {
      method: "DELETE",
      headers: { authorization: `Bearer ${gw.apiKey}` },
    });
    const body = (await cleared.json()) as { deleted: number; vectors: number };
    expect(body.vectors).toBeGreaterThan(0);
    expect(state(await ask("near", "who wrote les miserables?"))).toBe("miss");

    const bad = startRoutedGateway({
      routing: {
        ...routing(fake.url),
        aliases: { x: { deployments: ["chat"], cache: { max_age: 60, semantic: { threshold: 1.5 } } } },
      },
      providerEnv: { SEM_KEY: "sem-k" },
    });
    await expect(bad).rejects.toThrow(/aliases\.x\.cache\.semantic/);
  });
});

const sharedBackends = process.env.REDIS_URL && databaseBackends.includes("postgres");

/** Vectors are rows of the database: an instance started later rebuilds its index from them. */
describe.runIf(sharedBackends)("the semantic cache across instances on one PostgreSQL and one Redis", () => {
  let fake: FakeLlm;
  let drop: () => Promise<void>;
  let databaseUrl: string;
  let file: { file: string; remove(): void };
  const instances: { rt: Runtime; app: ServedGateway }[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenAICompatible({ key: "sem-k", reply: "From the first instance." });
    Object.assign(process.env, { SEM_KEY: "sem-k" });
    file = writeRoutingFile(routing(fake.url));
    const pg = await freshPostgres();
    drop = pg.drop;
    databaseUrl = pg.url;
  });
  afterAll(async () => {
    for (const { rt, app } of instances) {
      await app.close();
      await rt.close();
    }
    await drop?.();
    await fake?.close();
    file?.remove();
  });

  const start = async () => {
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL,
      LOG_LEVEL: "silent",
      GATEWAY_CONFIG: file.file,
      SEM_KEY: "sem-k",
      DATA_DIR: tempDir(),
    };
    const rt = await createRuntime(loadConfig(env));
    const instance = { rt, app: await serveGateway(createApp(rt)) };
    instances.push(instance);
    return instance;
  };

  it("answers on an instance started after the question was answered on another", async () => {
    const a = await start();
    const { key } = await createKey(a.rt.db, { name: "semantic-shared" }, "test");
    // Words no earlier run asked: Redis outlives test runs.
    const topic = crypto.randomUUID().replace(/-/g, " ");
    const ask = (at: typeof a, content: string) =>
      at.app.request("/v1/chat/completions", {
        method: "POST",
        headers: { "X-API-Key": key, "content-type": "application/json" },
        body: JSON.stringify({ model: "near", messages: [{ role: "user", content }], temperature: 0 }),
      });
    expect((await ask(a, `Tell me about ${topic}.`)).headers.get("x-gateway-cache")).toBe("miss");
    // The vector is written off the answer's path.
    await expect.poll(() => a.rt.db.prisma.llmCacheVector.count()).toBe(1);
    const b = await start();
    const hit = await ask(b, `tell me about ${topic}`);
    expect(hit.headers.get("x-gateway-cache")).toBe("semantic-hit");
    expect(((await hit.json()) as Completion).choices[0]!.message.content).toBe("From the first instance.");
  });
});
