import http from "node:http";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeEmbedding, startFakeAnthropic, startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { listen, type Listening } from "./support/listen.ts";

describe("OpenAI-compatible surface, driven by the official openai client over a real socket", () => {
  let gw: TestGateway;
  let server: Listening;
  let client: OpenAI;
  let keyId: string;
  let xai: FakeLlm;
  let openaiFake: FakeLlm;
  let anthropic: FakeLlm;
  const saved = { ...process.env };

  beforeAll(async () => {
    [xai, openaiFake, anthropic] = await Promise.all([
      startFakeOpenAICompatible({ key: "xai-k", reply: "Grok says hi." }),
      startFakeOpenAICompatible({ key: "oa-k", reply: "unused" }),
      startFakeAnthropic({ key: "an-k", reply: "Claude streams this." }),
    ]);
    Object.assign(process.env, {
      XAI_API_KEY: "xai-k",
      UPSTREAM_XAI_URL: xai.url,
      OPENAI_API_KEY: "oa-k",
      UPSTREAM_OPENAI_URL: openaiFake.url,
      ANTHROPIC_API_KEY: "an-k",
      UPSTREAM_ANTHROPIC_URL: anthropic.url,
    });
    gw = await startTestGateway();
    const created = await gw.key();
    keyId = created.id;
    server = await listen(http.createServer(gw.app.node));
    client = new OpenAI({ apiKey: created.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    process.env = saved;
    await server?.close();
    await gw?.close();
    await Promise.all([xai?.close(), openaiFake?.close(), anthropic?.close()]);
  });

  it("completes a chat, routing provider/model", async () => {
    const completion = await client.chat.completions.create({
      model: "xai/grok-4",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(completion.object).toBe("chat.completion");
    expect(completion.choices[0]!.message.content).toBe("Grok says hi.");
    expect(completion.model).toBe("xai/grok-4");
    expect(completion.usage?.completion_tokens).toBe(3);
    expect(xai.requests.at(-1)!.body.model).toBe("grok-4");
  });

  it("refuses a model whose provider prefix is unknown with a 400 naming the providers, sending nothing on", async () => {
    const before = xai.requests.length;
    const refused = client.chat.completions.create({ model: "nope/xyz", messages: [{ role: "user", content: "hi" }] });
    await expect(refused).rejects.toMatchObject({ status: 400 });
    await expect(refused).rejects.toThrow(/unknown provider 'nope' in model 'nope\/xyz'.*xai/);
    expect(xai.requests.length).toBe(before);
  });

  it("streams a chat from another provider, with usage at the end", async () => {
    const stream = await client.chat.completions.create({
      model: "anthropic/claude-haiku-4-5",
      messages: [
        { role: "system", content: "Be kind." },
        { role: "user", content: "stream please" },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe("Claude streams this.");
    expect(finish).toBe("stop");
    expect(usage?.completion_tokens).toBe(3);
    expect(anthropic.requests.at(-1)!.body).toMatchObject({
      model: "claude-haiku-4-5",
      system: "Be kind.",
    });
  });

  it("embeds and lists models", async () => {
    const e = await client.embeddings.create({
      model: "openai/text-embedding-3-small",
      input: ["alpha beta", "gamma"],
    });
    expect(e.data.map((d) => d.index)).toEqual([0, 1]);
    // The SDK asks for base64 float32 and decodes it, so compare at float32 precision.
    expect(e.data[1]!.embedding).toEqual(Array.from(new Float32Array(fakeEmbedding("gamma"))));
    const models = await client.models.list();
    const ids = models.data.map((m) => m.id);
    expect(ids).toContain("xai/grok-4-fast");
    expect(ids).toContain("anthropic/claude-opus-4-1");
  });

  it("rejects a bad key the way OpenAI clients expect (401), and meters what it served", async () => {
    const anonymous = new OpenAI({ apiKey: "sk_nope", baseURL: client.baseURL, maxRetries: 0 });
    await expect(anonymous.models.list()).rejects.toMatchObject({ status: 401 });
    await gw.rt.meter.flush();
    const events = await gw.rt.db.prisma.usageEvent.findMany({ where: { keyId } });
    expect(new Set(events.map((e) => e.route))).toEqual(
      new Set(["/v1/chat/completions", "/v1/embeddings", "/v1/models"]),
    );
  });
});
