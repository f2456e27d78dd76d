import { describe, expect, it } from "vitest";
import { mp3Duration } from "../lib/api/utils/speech/mp3.ts";
import { startFakeElevenLabs, startFakeOpenAISpeech, type Fake } from "./fakes/speech.ts";
import { useGateway } from "./support/use-gateway.ts";

const VOICES = [
  { voice_id: "voice123", name: "Clone" },
  { voice_id: "21m00Tcm4TlvDq8ikWAM", name: "Rachel" },
];

describe("speech over HTTP", () => {
  let openai: Fake;
  let eleven: Fake;
  const t = useGateway({
    fakes: async () => [
      (openai = await startFakeOpenAISpeech({ key: "sk-openai-test" })),
      (eleven = await startFakeElevenLabs({ key: "xi-test", voices: VOICES })),
    ],
  });
  const tts = (body: unknown) => t.post("/v1/utils/tts", body);
  const { get } = t;

  it("speaks offline with espeak by default: a valid MP3", async () => {
    const res = await tts({ text: "The gateway speaks." });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    const { frames, seconds } = mp3Duration(new Uint8Array(await res.arrayBuffer()));
    expect(frames).toBeGreaterThan(10);
    expect(seconds).toBeGreaterThan(0.5);
    const spanish = await tts({ text: "Hola a todos.", lang: "es" });
    expect(spanish.status).toBe(200);
  });

  it("refuses text over 5,000 characters and unknown languages with 400", async () => {
    const long = await tts({ text: "a".repeat(5001) });
    expect(long.status).toBe(400);
    expect((await long.json()).error).toMatch(/5000 characters/);
    const lang = await tts({ text: "hi", lang: "zz" });
    expect(lang.status).toBe(400);
    expect((await lang.json()).error).toMatch(/\/v1\/utils\/languages/);
  });

  it("answers 503 naming the variable while a hosted provider is not configured", async () => {
    delete process.env.OPENAI_API_KEY;
    const res = await tts({ text: "hi", provider: "openai" });
    expect(res.status).toBe(503);
    expect((await res.json()).error).toMatch(/OPENAI_API_KEY/);
    const providers = await (await get("/v1/utils/tts/providers")).json();
    expect(providers.providers.map((p: { name: string; configured: boolean }) => [p.name, p.configured])).toEqual([
      ["espeak", true],
      ["openai", false],
      ["elevenlabs", false],
    ]);
  });

  it("calls OpenAI's speech API with the voice and returns its MP3", async () => {
    process.env.OPENAI_API_KEY = "sk-openai-test";
    process.env.UPSTREAM_OPENAI_URL = openai.url;
    const res = await tts({ text: "Hello there", provider: "openai", voice: "nova" });
    expect(res.status).toBe(200);
    expect(mp3Duration(new Uint8Array(await res.arrayBuffer())).seconds).toBeGreaterThan(0.4);
    expect(openai.hits.at(-1)?.body).toMatchObject({
      model: "tts-1",
      input: "Hello there",
      voice: "nova",
      response_format: "mp3",
    });
    expect((await tts({ text: "x", provider: "openai", voice: "robot" })).status).toBe(400);
    process.env.OPENAI_API_KEY = "sk-wrong";
    const rejected = await tts({ text: "x", provider: "openai" });
    expect(rejected.status).toBe(502);
    expect((await rejected.json()).error).toMatch(/rejected the gateway's credentials/);
  });

  it("calls ElevenLabs with a voice id and lists its voices", async () => {
    process.env.ELEVENLABS_API_KEY = "xi-test";
    process.env.UPSTREAM_ELEVENLABS_URL = eleven.url;
    const res = await tts({ text: "Cloned hello", provider: "elevenlabs", voice: "voice123" });
    expect(res.status).toBe(200);
    expect(eleven.hits.at(-1)).toMatchObject({ path: "/v1/text-to-speech/voice123", body: { text: "Cloned hello" } });
    expect((await tts({ text: "x", provider: "elevenlabs" })).status).toBe(400);
    const voices = await (await get("/v1/utils/voices?provider=elevenlabs")).json();
    expect(voices.voices.elevenlabs).toEqual([
      { id: "voice123", name: "Clone" },
      { id: "21m00Tcm4TlvDq8ikWAM", name: "Rachel" },
    ]);
  });

  it("resolves an ElevenLabs voice name to its id (list cached), passes ids as is, and explains unknown names", async () => {
    process.env.ELEVENLABS_API_KEY = "xi-test";
    process.env.UPSTREAM_ELEVENLABS_URL = eleven.url;
    const listed = () => eleven.hits.filter((h) => h.path === "/v1/voices").length;
    const before = listed();
    for (const [path, body] of [
      ["/v1/utils/tts", { text: "Hello Rachel", provider: "elevenlabs", voice: "Rachel" }],
      ["/v1/llm/speech", { text: "Hello again", provider: "elevenlabs", voice: "rachel" }],
    ] as const) {
      const res = await t.post(path, body);
      expect(res.status, path).toBe(200);
      expect(eleven.hits.at(-1), path).toMatchObject({
        path: "/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM",
        body: { text: body.text },
      });
    }
    expect(listed() - before).toBeLessThanOrEqual(1);
    const afterNames = listed();
    expect((await tts({ text: "By id", provider: "elevenlabs", voice: "21m00Tcm4TlvDq8ikWAM" })).status).toBe(200);
    expect(eleven.hits.at(-1)?.path).toBe("/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM");
    expect(listed()).toBe(afterNames);
    const unknown = await tts({ text: "x", provider: "elevenlabs", voice: "Nobody" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toMatch(/no voice 'Nobody'.*Rachel \(21m00Tcm4TlvDq8ikWAM\)/);
    expect(eleven.hits.at(-1)?.path).not.toBe("/v1/text-to-speech/Nobody");
  });

  it("lists voices for all providers and 100+ espeak languages", async () => {
    const all = await (await get("/v1/utils/voices")).json();
    expect(Object.keys(all.voices)).toEqual(["espeak", "openai", "elevenlabs"]);
    expect(all.voices.openai).toHaveLength(6);
    const langs = await (await get("/v1/utils/languages")).json();
    expect(langs.count).toBeGreaterThan(100);
    expect((await get("/v1/utils/voices?provider=nope")).status).toBe(400);
  });
});
