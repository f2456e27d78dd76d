import { GatewayError } from "../gateway/errors.ts";
import { readCappedBody } from "./capped-body.ts";
import { requireCredential } from "./credentials.ts";
import { callUpstream, upstreamFailure, upstreamJson } from "./http.ts";
import { upstreamOrigin } from "./origin.ts";

export const OPENAI_VOICES = ["alloy", "echo", "fable", "onyx", "nova", "shimmer"] as const;
const TIMEOUT_MS = 30_000;

async function audioOrError(res: Response, provider: string): Promise<Buffer> {
  if (res.ok) return readCappedBody(res, provider);
  throw await upstreamFailure(provider, res);
}

export function openaiConfigured(): boolean {
  return Boolean(process.env.OPENAI_API_KEY?.trim());
}

export function elevenlabsConfigured(): boolean {
  return Boolean(process.env.ELEVENLABS_API_KEY?.trim());
}

/** OpenAI's speech endpoint (POST /v1/audio/speech), MP3 out; the voice is checked before any call. */
export async function openaiSpeech(text: string, voice = "alloy", model = "tts-1", speed = 1): Promise<Buffer> {
  if (!(OPENAI_VOICES as readonly string[]).includes(voice)) throw new GatewayError(400, `voice must be one of ${OPENAI_VOICES.join(", ")} for openai`);
  const key = requireCredential("openai speech", "OPENAI_API_KEY");
  const res = await callUpstream(
    "openai",
    `${upstreamOrigin("openai", "https://api.openai.com")}/v1/audio/speech`,
    {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model, input: text, voice, response_format: "mp3", speed }),
    },
    TIMEOUT_MS,
  );
  return audioOrError(res, "openai");
}

/** ElevenLabs text to speech (POST /v1/text-to-speech/{voice_id}), MP3 out. */
export async function elevenlabsSpeech(text: string, voiceId: string | undefined): Promise<Buffer> {
  if (!voiceId) throw new GatewayError(400, "voice (an ElevenLabs voice id) is required for elevenlabs; see /v1/utils/voices?provider=elevenlabs");
  const key = requireCredential("elevenlabs speech", "ELEVENLABS_API_KEY");
  const res = await callUpstream(
    "elevenlabs",
    `${upstreamOrigin("elevenlabs", "https://api.elevenlabs.io")}/v1/text-to-speech/${encodeURIComponent(voiceId)}?output_format=mp3_44100_128`,
    {
      method: "POST",
      headers: { "xi-api-key": key, "content-type": "application/json", accept: "audio/mpeg" },
      body: JSON.stringify({ text, model_id: "eleven_multilingual_v2" }),
    },
    TIMEOUT_MS,
  );
  return audioOrError(res, "elevenlabs");
}

export type HostedVoice = { id: string; name: string };

/** The account's ElevenLabs voices (GET /v1/voices). */
export async function elevenlabsVoices(): Promise<HostedVoice[]> {
  const key = requireCredential("elevenlabs speech", "ELEVENLABS_API_KEY");
  const body = await upstreamJson<{ voices?: Array<{ voice_id: string; name: string }> }>(
    "elevenlabs",
    `${upstreamOrigin("elevenlabs", "https://api.elevenlabs.io")}/v1/voices`,
    { headers: { "xi-api-key": key } },
    TIMEOUT_MS,
  );
  return (body.voices ?? []).map((v) => ({ id: v.voice_id, name: v.name }));
}
