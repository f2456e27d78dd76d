import { GatewayError } from "../../../gateway/errors.ts";
import { upstreamOrigin } from "../../../upstream/origin.ts";

export const OPENAI_VOICES = ["alloy", "echo", "fable", "onyx", "nova", "shimmer"] as const;
const TIMEOUT_MS = 30_000;

function credential(variable: string, what: string): string {
  const value = process.env[variable]?.trim();
  if (!value) throw new GatewayError(503, `${what} is not configured: set ${variable}`);
  return value;
}

/** Upstream answers become gateway errors a client can act on; the provider's own text is kept short. */
async function audioOrError(res: Response, provider: string): Promise<Buffer> {
  if (res.ok) return Buffer.from(await res.arrayBuffer());
  const detail = (await res.text().catch(() => "")).slice(0, 200);
  if (res.status === 401 || res.status === 403) throw new GatewayError(502, `${provider} rejected the gateway's credentials`);
  if (res.status === 429) {
    const retry = res.headers.get("retry-after");
    throw new GatewayError(503, `${provider} is rate limiting the gateway; try again later`, retry ? { "Retry-After": retry } : {});
  }
  if (res.status >= 400 && res.status < 500) throw new GatewayError(400, `${provider} refused the request: ${detail}`);
  throw new GatewayError(502, `${provider} failed (${res.status})`);
}

async function call(url: string, init: RequestInit, provider: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    if ((err as Error).name === "TimeoutError") throw new GatewayError(504, `${provider} did not answer within ${TIMEOUT_MS / 1000} s`);
    throw new GatewayError(502, `${provider} could not be reached`);
  }
}

export function openaiConfigured(): boolean {
  return Boolean(process.env.OPENAI_API_KEY?.trim());
}

export function elevenlabsConfigured(): boolean {
  return Boolean(process.env.ELEVENLABS_API_KEY?.trim());
}

/** OpenAI's speech endpoint (POST /v1/audio/speech), MP3 out. */
export async function openaiSpeech(text: string, voice: string, model = "tts-1", speed = 1): Promise<Buffer> {
  const key = credential("OPENAI_API_KEY", "openai speech");
  const res = await call(
    `${upstreamOrigin("openai", "https://api.openai.com")}/v1/audio/speech`,
    {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model, input: text, voice, response_format: "mp3", speed }),
    },
    "openai",
  );
  return audioOrError(res, "openai");
}

/** ElevenLabs text to speech (POST /v1/text-to-speech/{voice_id}), MP3 out. */
export async function elevenlabsSpeech(text: string, voiceId: string): Promise<Buffer> {
  const key = credential("ELEVENLABS_API_KEY", "elevenlabs speech");
  const res = await call(
    `${upstreamOrigin("elevenlabs", "https://api.elevenlabs.io")}/v1/text-to-speech/${encodeURIComponent(voiceId)}?output_format=mp3_44100_128`,
    {
      method: "POST",
      headers: { "xi-api-key": key, "content-type": "application/json", accept: "audio/mpeg" },
      body: JSON.stringify({ text, model_id: "eleven_multilingual_v2" }),
    },
    "elevenlabs",
  );
  return audioOrError(res, "elevenlabs");
}

export type HostedVoice = { id: string; name: string };

/** The account's ElevenLabs voices (GET /v1/voices). */
export async function elevenlabsVoices(): Promise<HostedVoice[]> {
  const key = credential("ELEVENLABS_API_KEY", "elevenlabs speech");
  const res = await call(`${upstreamOrigin("elevenlabs", "https://api.elevenlabs.io")}/v1/voices`, { headers: { "xi-api-key": key } }, "elevenlabs");
  if (!res.ok) await audioOrError(res, "elevenlabs");
  const body = (await res.json()) as { voices?: Array<{ voice_id: string; name: string }> };
  return (body.voices ?? []).map((v) => ({ id: v.voice_id, name: v.name }));
}
