import http from "node:http";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageReport } from "../lib/portal/usage/report.ts";
import type { CacheUse } from "../lib/usage/usage-event.ts";
import { fakeEmbedding, startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { listen, type Listening } from "./support/listen.ts";

describe("the response cache on /v1/chat/completions, driven by the official openai client", () => {
  let gw: TestGateway;
  let server: Listening;
  let xai: FakeLlm;
  let openai: FakeLlm;
  let a: OpenAI;
  let b: OpenAI;
  let keyA: string;
  const saved = { ...process.env };
  const cached = { headers: { "cache-control": "max-age=600" } };

  beforeAll(async () => {
    xai = await startFakeOpenAICompatible({ key: "xai-k", reply: "Cached words travel far." });
    openai = await startFakeOpenAICompatible({ key: "oa-k", reply: "unused" });
    Object.assign(process.env, {
      XAI_API_KEY: "xai-k",
      UPSTREAM_XAI_URL: xai.url,
      OPENAI_API_KEY: "oa-k",
      UPSTREAM_OPENAI_URL: openai.url,
    });
    gw = await startTestGateway();
    server = await listen(http.createServer(gw.app.node));
    const [ka, kb] = [await gw.key(), await gw.key()];
    keyA = ka.key;
    a = new OpenAI({ apiKey: ka.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    b = new OpenAI({ apiKey: kb.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    process.env = saved;
    await server?.close();
    await gw?.close();
    await xai?.close();
    await openai?.close();
  });

  const question = (content: string, extra: object = {}) => ({
    model: "xai/grok-4",
    messages: [{ role: "user" as const, content }],
    ...extra,
  });

  async function cacheOf(requestId: string): Promise<CacheUse | null> {
    await gw.rt.meter.flush();
    const row = await gw.rt.db.prisma.usageEvent.findFirst({ where: { requestId } });
    return row?.cache as CacheUse | null;
  }

  it("answers a repeated question from the cache: no provider call, its own id, hit and age headers, metered free", async () => {
    const sent = xai.requests.length;
    const first = await a.chat.completions.create(question("What travels far?"), cached).withResponse();
    expect(first.response.headers.get("x-gateway-cache")).toBe("miss");
    expect(xai.requests.length).toBe(sent + 1);

    // The same question with its fields in another order and a default spelled out.
    const second = await a.chat.completions
      .create(
        { temperature: 1, messages: [{ content: "What travels far?", role: "user" }], model: "xai/grok-4" },
        cached,
      )
      .withResponse();
    expect(xai.requests.length).toBe(sent + 1);
    expect(second.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(Number(second.response.headers.get("age"))).toBeGreaterThanOrEqual(0);
    expect(second.data.choices[0]!.message.content).toBe("Cached words travel far.");
    expect(second.data.model).toBe("xai/grok-4");
    expect(second.data.usage).toEqual(first.data.usage);
    expect(second.data.id).not.toBe(first.data.id);

    expect(await cacheOf(first.response.headers.get("x-request-id")!)).toEqual({ state: "miss" });
    const missRow = await gw.rt.db.prisma.usageEvent.findFirst({
      where: { requestId: first.response.headers.get("x-request-id")! },
    });
    const hitRow = await gw.rt.db.prisma.usageEvent.findFirst({
      where: { requestId: second.response.headers.get("x-request-id")! },
    });
    // A hit pays no provider: no provider, model or tokens to price; what it saved is in its cache column.
    expect(hitRow).toMatchObject({
      status: 200,
      provider: null,
      model: null,
      promptTokens: null,
      completionTokens: null,
    });
    // The dashboards' 30 days count the hit and the tokens it saved.
    const { cache } = await usageReport(gw.rt.db, { keyId: hitRow!.keyId });
    expect(cache).toMatchObject({ hits: 1, misses: 1, saved_completion_tokens: first.data.usage!.completion_tokens });
    expect(hitRow!.cache).toMatchObject({
      state: "hit",
      // What the provider's answer was priced as when it was given.
      provider: missRow!.provider,
      model: missRow!.model,
      promptTokens: first.data.usage!.prompt_tokens,
      completionTokens: first.data.usage!.completion_tokens,
    });
  });

  it("replays a whole answer as a stream, with the usage chunk the client asked for", async () => {
    await a.chat.completions.create(question("Stream me later."), cached);
    const sent = xai.requests.length;
    const { data: stream, response } = await a.chat.completions
      .create({ ...question("Stream me later."), stream: true, stream_options: { include_usage: true } }, cached)
      .withResponse();
    expect(response.headers.get("x-gateway-cache")).toBe("hit");
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
      expect(chunk.model).toBe("xai/grok-4");
    }
    expect(text).toBe("Cached words travel far.");
    expect(finish).toBe("stop");
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(xai.requests.length).toBe(sent);
  });

  it("keeps a streamed answer, and answers the same question whole from it", async () => {
    const stream = await a.chat.completions.create({ ...question("Stream me first."), stream: true }, cached);
    let streamed = "";
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta?.content ?? "";
    const sent = xai.requests.length;
    const whole = await a.chat.completions.create(question("Stream me first."), cached).withResponse();
    expect(whole.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(whole.data.choices[0]!.message.content).toBe(streamed);
    expect(whole.data.choices[0]!.finish_reason).toBe("stop");
    expect(xai.requests.length).toBe(sent);
  });

  it("never gives one key's answer to another key", async () => {
    await a.chat.completions.create(question("Only mine."), cached);
    const sent = xai.requests.length;
    const other = await b.chat.completions.create(question("Only mine."), cached).withResponse();
    expect(other.response.headers.get("x-gateway-cache")).toBe("miss");
    expect(xai.requests.length).toBe(sent + 1);
  });

  it("asks the provider when the answer could differ, or the request did not ask for the cache", async () => {
    await a.chat.completions.create(question("Vary me."), cached);
    const sent = xai.requests.length;
    const colder = await a.chat.completions.create(question("Vary me.", { temperature: 0 }), cached).withResponse();
    expect(colder.response.headers.get("x-gateway-cache")).toBe("miss");
    const uncached = await a.chat.completions.create(question("Vary me.")).withResponse();
    expect(uncached.response.headers.get("x-gateway-cache")).toBeNull();
    const noStore = await a.chat.completions
      .create(question("Vary me."), { headers: { "cache-control": "max-age=600, no-store" } })
      .withResponse();
    expect(noStore.response.headers.get("x-gateway-cache")).toBeNull();
    const fresh = await a.chat.completions
      .create(question("Vary me."), { headers: { "cache-control": "no-cache" } })
      .withResponse();
    expect(fresh.response.headers.get("x-gateway-cache")).toBe("miss");
    expect(xai.requests.length).toBe(sent + 4);
  });

  it("DELETE /v1/cache clears the caller's own entries and no one else's", async () => {
    await a.chat.completions.create(question("Forget me."), cached);
    await b.chat.completions.create(question("Keep me."), cached);
    const res = await gw.request("/v1/cache", { method: "DELETE", headers: { authorization: `Bearer ${keyA}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { deleted: number }).deleted).toBeGreaterThanOrEqual(1);
    const again = await a.chat.completions.create(question("Forget me."), cached).withResponse();
    expect(again.response.headers.get("x-gateway-cache")).toBe("miss");
    const kept = await b.chat.completions.create(question("Keep me."), cached).withResponse();
    expect(kept.response.headers.get("x-gateway-cache")).toBe("hit");
  });

  it("answers repeated embeddings from the cache, in the encoding each request asks for", async () => {
    const ask = { model: "openai/text-embedding-3-small", input: ["alpha beta", "gamma"] };
    const sent = openai.requests.length;
    const first = await a.embeddings.create(ask, cached).withResponse();
    expect(first.response.headers.get("x-gateway-cache")).toBe("miss");
    const second = await a.embeddings.create(ask, cached).withResponse();
    expect(second.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(openai.requests.length).toBe(sent + 1);
    // The SDK asks for base64 float32 and decodes it, so compare at float32 precision.
    expect(second.data.data[1]!.embedding).toEqual(Array.from(new Float32Array(fakeEmbedding("gamma"))));
    expect(second.data.usage).toEqual(first.data.usage);
    const floats = await gw.request("/v1/embeddings", {
      method: "POST",
      headers: { authorization: `Bearer ${keyA}`, "content-type": "application/json", "cache-control": "max-age=60" },
      body: JSON.stringify({ ...ask, encoding_format: "float" }),
    });
    expect(floats.headers.get("x-gateway-cache")).toBe("hit");
    expect(((await floats.json()) as { data: { embedding: number[] }[] }).data[0]!.embedding).toEqual(
      fakeEmbedding("alpha beta"),
    );
    // Another order of the inputs is another question.
    await a.embeddings.create({ ...ask, input: ["gamma", "alpha beta"] }, cached);
    expect(openai.requests.length).toBe(sent + 2);
  });

  it("answers the gateway's own whole chat from the cache, sharing entries with the compatible surfaces", async () => {
    const llmChat = (content: string) =>
      gw.request("/v1/llm/chat", {
        method: "POST",
        headers: { authorization: `Bearer ${keyA}`, "content-type": "application/json", "cache-control": "max-age=60" },
        body: JSON.stringify({ provider: "xai", model: "grok-4", messages: [{ role: "user", content }] }),
      });
    const sent = xai.requests.length;
    const first = await llmChat("Plain chat, twice.");
    expect(first.headers.get("x-gateway-cache")).toBe("miss");
    const fresh = (await first.json()) as { content: string; provider: string; model: string };
    const again = await llmChat("Plain chat, twice.");
    expect(again.headers.get("x-gateway-cache")).toBe("hit");
    expect(await again.json()).toMatchObject({ content: fresh.content, provider: fresh.provider, model: fresh.model });
    const compat = await a.chat.completions.create(question("Plain chat, twice."), cached).withResponse();
    expect(compat.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(compat.data.choices[0]!.message.content).toBe(fresh.content);
    expect(compat.data.model).toBe("xai/grok-4");
    expect(xai.requests.length).toBe(sent + 1);
  });
  it("keeps the gateway's own streamed chat, and replays it as the same {content} and {done} events", async () => {
    const llmStream = (content: string) =>
      gw.request("/v1/llm/chat?stream=true", {
        method: "POST",
        headers: { authorization: `Bearer ${keyA}`, "content-type": "application/json", "cache-control": "max-age=60" },
        body: JSON.stringify({ provider: "xai", model: "grok-4", messages: [{ role: "user", content }] }),
      });
    const events = async (res: Response) =>
      (await res.text())
        .split("\n\n")
        .filter((frame) => frame.startsWith("data: "))
        .map((frame) => JSON.parse(frame.slice(6)) as { content?: string; done?: boolean; usage?: object });
    const text = (all: { content?: string }[]) => all.map((e) => e.content ?? "").join("");
    const sent = xai.requests.length;
    const first = await llmStream("Stream the plain chat.");
    expect(first.headers.get("x-gateway-cache")).toBe("miss");
    const fresh = await events(first);
    expect(text(fresh)).toBe("Cached words travel far.");
    await expect.poll(async () => (await cacheOf(first.headers.get("x-request-id")!))?.state).toBe("miss");

    const again = await llmStream("Stream the plain chat.");
    expect(again.headers.get("x-gateway-cache")).toBe("hit");
    expect(again.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const replayed = await events(again);
    expect(text(replayed)).toBe("Cached words travel far.");
    expect(replayed.at(-1)).toEqual(fresh.at(-1));
    expect(replayed.at(-1)).toMatchObject({ done: true, provider: "xai", usage: { completion_tokens: 4 } });
    expect(await cacheOf(again.headers.get("x-request-id")!)).toMatchObject({ state: "hit", provider: "xai" });
    const whole = await a.chat.completions.create(question("Stream the plain chat."), cached).withResponse();
    expect(whole.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(whole.data.choices[0]!.message.content).toBe("Cached words travel far.");
    expect(xai.requests.length).toBe(sent + 1);
  });
});
