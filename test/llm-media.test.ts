import { describe, expect, it } from "vitest";
import { mp3Duration } from "../lib/api/utils/speech/mp3.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startFakeElevenLabs, type Fake } from "./fakes/speech.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("/v1/llm images, speech and transcription", () => {
  let openai: FakeLlm;
  let eleven: Fake;
  const t = useGateway({
    fakes: async () => [
      (openai = await startFakeOpenAICompatible({ key: "oa" })),
      (eleven = await startFakeElevenLabs({ key: "xi", voices: [{ voice_id: "v1", name: "Nova" }] })),
    ],
    env: () => ({
      OPENAI_API_KEY: "oa",
      UPSTREAM_OPENAI_URL: openai.url,
      ELEVENLABS_API_KEY: "xi",
      UPSTREAM_ELEVENLABS_URL: eleven.url,
    }),
  });
  const { post } = t;

  it("generates an image with dall-e-3 by default, passing quality and size", async () => {
    const res = await post("/v1/llm/images/generate", { prompt: "a lighthouse", quality: "hd", size: "1792x1024" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      url: "https://images.example/dall-e-3/1.png",
      b64_json: null,
      model: "dall-e-3",
      revised_prompt: "A detailed a lighthouse",
    });
    expect(openai.requests.at(-1)!.body).toMatchObject({
      model: "dall-e-3",
      prompt: "a lighthouse",
      quality: "hd",
      size: "1792x1024",
      n: 1,
    });
    expect((await post("/v1/llm/images/generate", { prompt: "x", size: "10x10" })).status).toBe(400);
  });

  it("speaks Form A (OpenAI voices) and Form B (ElevenLabs voice id) as MP3", async () => {
    const a = await post("/v1/llm/speech", { text: "Hello", voice: "onyx", speed: 1.25 });
    expect(a.status).toBe(200);
    expect(a.headers.get("content-type")).toBe("audio/mpeg");
    expect(mp3Duration(new Uint8Array(await a.arrayBuffer())).seconds).toBeGreaterThan(0.4);
    expect(openai.requests.at(-1)!.body).toMatchObject({ model: "tts-1", voice: "onyx", input: "Hello", speed: 1.25 });
    const b = await post("/v1/llm/speech", { text: "Hi", provider: "elevenlabs", voice: "v1" });
    expect(b.status).toBe(200);
    expect(eleven.hits.at(-1)!.path).toBe("/v1/text-to-speech/v1");
    expect((await post("/v1/llm/speech", { text: "x", voice: "robot" })).status).toBe(400);
  });

  it("transcribes an uploaded file, with language and duration", async () => {
    const form = new FormData();
    form.set("file", new File([new Uint8Array(2048).fill(1)], "memo.m4a", { type: "audio/mp4" }));
    form.set("language", "en");
    const res = await t.gw.request("/v1/llm/transcribe", {
      method: "POST",
      headers: { "X-API-Key": t.key },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: "Hello from the recording.", language: "en", duration: 2.5 });
    expect(openai.requests.at(-1)!.body).toMatchObject({
      model: "whisper-1",
      language: "en",
      response_format: "verbose_json",
      filename: "memo.m4a",
      size: 2048,
    });
  });

  it("refuses unsupported audio, a missing file and a bad language code with 400", async () => {
    const wrong = new FormData();
    wrong.set("file", new File([new Uint8Array(10)], "notes.txt"));
    const r1 = await t.gw.request("/v1/llm/transcribe", {
      method: "POST",
      headers: { "X-API-Key": t.key },
      body: wrong,
    });
    expect(r1.status).toBe(400);
    expect((await r1.json()).error).toMatch(/mp3, mp4/);
    const none = new FormData();
    none.set("language", "en");
    expect(
      (await t.gw.request("/v1/llm/transcribe", { method: "POST", headers: { "X-API-Key": t.key }, body: none }))
        .status,
    ).toBe(400);
    const lang = new FormData();
    lang.set("file", new File([new Uint8Array(10)], "a.mp3"));
    lang.set("language", "english");
    expect(
      (await t.gw.request("/v1/llm/transcribe", { method: "POST", headers: { "X-API-Key": t.key }, body: lang }))
        .status,
    ).toBe(400);
  });
});
