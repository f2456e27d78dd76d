import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { startFakeServer } from "./fakes/data-sources.ts";
import { useGateway } from "./support/use-gateway.ts";

const CAP = 64 * 1024;

/** An upstream that answers every path with 200 and a body far past the cap, streamed without a Content-Length. */
function startFloodingUpstream() {
  const app = new Hono();
  app.all("*", (c) => {
    const chunk = new TextEncoder().encode("a".repeat(16 * 1024));
    let left = 64;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"pad":"'));
      },
      pull(controller) {
        if (left-- === 0) return controller.close();
        controller.enqueue(chunk);
      },
    });
    return c.body(body, 200, { "content-type": c.req.path.includes("speech") ? "audio/mpeg" : "application/json" });
  });
  return startFakeServer(app);
}

describe("upstream bodies are capped (UPSTREAM_MAX_BYTES)", () => {
  const t = useGateway({
    fakes: async () => [await startFloodingUpstream()],
    env: ([flood]) => ({
      UPSTREAM_MAX_BYTES: String(CAP),
      UPSTREAM_WIKIPEDIA_URL: flood.url,
      XAI_API_KEY: "xai-test",
      UPSTREAM_XAI_URL: flood.url,
      OPENAI_API_KEY: "openai-test",
      UPSTREAM_OPENAI_URL: flood.url,
    }),
    key: { minute: 1000 },
  });

  const expect502 = async (res: Response, label: string) => {
    expect(res.status, label).toBe(502);
    expect((await res.json()).error, label).toMatch(/larger than 65536 bytes/);
  };

  it("a data source answering 1 MB: 502 naming it", async () => {
    await expect502(await t.get("/v1/data/wikipedia/search?q=flood"), "wikipedia");
  });

  it("a speech provider answering 1 MB of audio: 502", async () => {
    await expect502(await t.post("/v1/utils/tts", { text: "hello", provider: "openai" }), "openai speech");
  });

  it("a language model streaming 1 MB: the stream stops at the cap with an error naming it", async () => {
    for (const [path, body] of [
      ["/v1/llm/chat", { provider: "openai", stream: true, messages: [{ role: "user", content: "hi" }] }],
      [
        "/v1/chat/completions",
        { model: "openai/gpt-4o-mini", stream: true, messages: [{ role: "user", content: "hi" }] },
      ],
    ] as const) {
      const text = await (await t.post(path, body)).text();
      expect(text, path).toMatch(/openai sent a response larger than 65536 bytes/);
    }
  });

  it("a language model answering 1 MB to a non-streamed chat: 502", async () => {
    await expect502(
      await t.post("/v1/llm/chat", { provider: "xai", messages: [{ role: "user", content: "hi" }] }),
      "xai chat",
    );
  });
});
