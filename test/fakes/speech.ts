import { Hono } from "hono";
import { wavToMp3 } from "../../lib/api/utils/speech/mp3.ts";
import { listen } from "../support/listen.ts";

export type Fake = {
  url: string;
  hits: Array<{ path: string; headers: Record<string, string>; body: unknown }>;
  close(): Promise<void>;
};

/** A real MP3: half a second of silence, encoded the same way as espeak output. */
export function silentMp3(): Buffer {
  const rate = 22050;
  const samples = rate / 2;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write("RIFF", 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write("WAVEfmt ", 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36);
  wav.writeUInt32LE(samples * 2, 40);
  return wavToMp3(wav);
}

async function start(app: Hono, hits: Fake["hits"]): Promise<Fake> {
  const { url, close } = await listen(app.fetch);
  return { url, hits, close };
}

/** OpenAI's POST /v1/audio/speech, as its API reference describes it. */
export async function startFakeOpenAISpeech(options: { key: string }): Promise<Fake> {
  const hits: Fake["hits"] = [];
  const app = new Hono();
  app.post("/v1/audio/speech", async (c) => {
    const body = await c.req.json();
    hits.push({ path: c.req.path, headers: Object.fromEntries(c.req.raw.headers), body });
    if (c.req.header("authorization") !== `Bearer ${options.key}`) {
      return c.json(
        { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } },
        401,
      );
    }
    if (!body.input || !body.voice)
      return c.json({ error: { message: "input and voice are required", type: "invalid_request_error" } }, 400);
    return c.body(new Uint8Array(silentMp3()), 200, { "content-type": "audio/mpeg" });
  });
  return start(app, hits);
}

/** ElevenLabs' POST /v1/text-to-speech/{voice_id} and GET /v1/voices. */
export async function startFakeElevenLabs(options: {
  key: string;
  voices: Array<{ voice_id: string; name: string }>;
}): Promise<Fake> {
  const hits: Fake["hits"] = [];
  const app = new Hono();
  app.use(async (c, next) => {
    if (c.req.header("xi-api-key") !== options.key)
      return c.json({ detail: { status: "invalid_api_key", message: "Invalid API key" } }, 401);
    return next();
  });
  app.get("/v1/voices", (c) => {
    hits.push({ path: c.req.path, headers: Object.fromEntries(c.req.raw.headers), body: null });
    return c.json({ voices: options.voices.map((v) => ({ ...v, category: "premade" })) });
  });
  app.post("/v1/text-to-speech/:voice", async (c) => {
    const body = await c.req.json();
    hits.push({ path: c.req.path, headers: Object.fromEntries(c.req.raw.headers), body });
    if (!options.voices.some((v) => v.voice_id === c.req.param("voice"))) {
      return c.json(
        { detail: { status: "voice_not_found", message: "A voice with the voice_id was not found." } },
        404,
      );
    }
    return c.body(new Uint8Array(silentMp3()), 200, { "content-type": "audio/mpeg" });
  });
  return start(app, hits);
}
