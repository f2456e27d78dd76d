import { Hono } from "hono";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { startFakeServer } from "./fakes/data-sources.ts";
import { PIXEL_PNG, startFakeSite, testCertificate, type FakeSite } from "./fakes/https-site.ts";
import { fakeEmbedding, startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("/v1/llm embeddings, similarity and vision", () => {
  // Ollama's POST /api/embed: {model, input} → {model, embeddings, prompt_eval_count}.
  const ollamaEmbed = new Hono();
  ollamaEmbed.post("/api/embed", async (c) => {
    const body = await c.req.json();
    const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
    return c.json({ model: body.model, embeddings: inputs.map(fakeEmbedding), prompt_eval_count: inputs.length * 3 });
  });
  let openai: FakeLlm;
  let site: FakeSite;
  // Filled in once the image site has its port, before the gateway starts: only images.test may be on loopback.
  const config: Record<string, string> = {};
  const t = useGateway({
    fakes: async () => {
      site = await startFakeSite(await testCertificate(["images.test", "inside.test"]));
      config.PROXY_ALLOW_PRIVATE_FOR_TESTS = `images.test:${site.port}`;
      config.UPSTREAM_CA_FILE = site.caFile;
      return [
        (openai = await startFakeOpenAICompatible({ key: "sk-openai", reply: "A red square." })),
        await startFakeServer(ollamaEmbed),
        site,
      ];
    },
    env: ([, ollama]) => ({
      OPENAI_API_KEY: "sk-openai",
      UPSTREAM_OPENAI_URL: openai.url,
      UPSTREAM_OLLAMA_URL: ollama.url,
    }),
    config,
  });
  beforeAll(() => {
    // Two public-looking names on the test site: images.test is exempted as if public, inside.test is not.
    t.gw.rt.resolveHost = async (host) => {
      if (host === "images.test" || host === "inside.test") return [{ address: "127.0.0.1", family: 4 }];
      throw new Error("NXDOMAIN");
    };
  });
  const { post } = t;

  it("embeds one text with OpenAI's default model, or an array (Form B)", async () => {
    const one = await (await post("/v1/llm/embed", { text: "hello world" })).json();
    expect(one).toEqual({ embedding: fakeEmbedding("hello world"), dimensions: 32, model: "text-embedding-3-small" });
    expect(openai.requests.at(-1)!.body).toMatchObject({ model: "text-embedding-3-small", input: ["hello world"] });
    const many = await (await post("/v1/llm/embed", { text: ["a b", "c d"] })).json();
    expect(many).toMatchObject({ count: 2, dimensions: 32 });
  });

  it("embeds batches in order, through OpenAI or the local runner", async () => {
    const batch = await (await post("/v1/llm/embed-batch", { texts: ["one", "two", "three"] })).json();
    expect(batch.count).toBe(3);
    expect(batch.embeddings[2]).toEqual(fakeEmbedding("three"));
    const local = await (await post("/v1/llm/embed-batch", { texts: ["one", "two"], provider: "ollama" })).json();
    expect(local).toMatchObject({ count: 2, model: "nomic-embed-text" });
    expect((await post("/v1/llm/embed-batch", { texts: [] })).status).toBe(400);
  });

  it("scores similarity in 0..1 with token counts per text", async () => {
    const same = await (await post("/v1/llm/similarity", { text1: "the cat sat", text2: "the cat sat" })).json();
    expect(same).toMatchObject({ similarity: 1, text1_tokens: 3, text2_tokens: 3 });
    const different = await (
      await post("/v1/llm/similarity", { text1: "apples oranges", text2: "quantum chromodynamics" })
    ).json();
    expect(different.similarity).toBeGreaterThanOrEqual(0);
    expect(different.similarity).toBeLessThan(0.5);
  });

  it("asks a vision model about a base64 image or an https URL, sent as bytes either way", async () => {
    const png = (
      await sharp({ create: { width: 8, height: 8, channels: 3, background: "red" } })
        .png()
        .toBuffer()
    ).toString("base64");
    const res = await post("/v1/llm/vision", { image: png, prompt: "What colour?" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ content: "A red square.", provider: "openai" });
    const sent = openai.requests.at(-1)!.body as {
      messages: Array<{ content: Array<{ type: string; image_url?: { url: string } }> }>;
    };
    const parts = sent.messages[0]!.content;
    expect(parts[0]).toMatchObject({ type: "text" });
    expect(parts[1]!.image_url!.url).toMatch(/^data:image\/png;base64,/);

    const fetched = await post("/v1/llm/vision", { image_url: `https://images.test:${site.port}/pixel.png` });
    expect(fetched.status).toBe(200);
    const byUrl = openai.requests.at(-1)!.body as typeof sent;
    // The gateway fetched it under its own rules; the provider (and the AI SDK before it) saw bytes, never the URL.
    expect(byUrl.messages[0]!.content[1]!.image_url!.url).toBe(`data:image/png;base64,${PIXEL_PNG.toString("base64")}`);
    expect(byUrl.messages[0]!.content[0]).toMatchObject({ text: "Describe the image." });
    expect(site.hits.at(-1)).toBe("/pixel.png");

    expect((await post("/v1/llm/vision", { prompt: "x" })).status).toBe(400);
    expect((await post("/v1/llm/vision", { image: "bm90IGFuIGltYWdl" })).status).toBe(400);
    expect((await post("/v1/llm/vision", { image: "http://example.com/a.png" })).status).toBe(400);
  });

  it("holds a vision URL to the address policy alt text has: a name on a private address is refused, nothing is sent on", async () => {
    const before = { provider: openai.requests.length, site: site.hits.length };
    for (const image of [`https://inside.test:${site.port}/pixel.png`, "https://169.254.169.254/latest/meta-data/"]) {
      const vision = await post("/v1/llm/vision", { image, prompt: "What colour?" });
      const altText = await post("/v1/generate/alt-text", { image });
      expect(vision.status).toBe(403);
      expect({ status: vision.status, body: await vision.json() }).toEqual({
        status: altText.status,
        body: await altText.json(),
      });
    }
    expect(openai.requests.length).toBe(before.provider);
    expect(site.hits.length).toBe(before.site);
  });
});
