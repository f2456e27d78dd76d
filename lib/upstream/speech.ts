import { GatewayError } from "../errors.ts";
import { readCappedBody } from "./capped-body.ts";
import { requireCredential } from "./credentials.ts";
import { looksLikeVoiceId, voiceIdFor, type HostedVoice } from "./elevenlabs-voice.ts";
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
  if (!(OPENAI_VOICES as readonly string[]).includes(voice))
    throw new GatewayError(400, `voice must be one of ${OPENAI_VOICES.join(", ")} for openai`);
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

/** ElevenLabs text to speech (POST /v1/text-to-speech/{voice_id}), MP3 out; `voice` is an id or a name from the account's voices. */
export async function elevenlabsSpeech(text: string, voice: string | undefined): Promise<Buffer> {
  if (!voice)
    throw new GatewayError(
      400,
      "voice (an ElevenLabs voice id or name) is required for elevenlabs; see /v1/utils/voices?provider=elevenlabs",
    );
  const key = requireCredential("elevenlabs speech", "ELEVENLABS_API_KEY");
  const voiceId = looksLikeVoiceId(voice) ? voice : voiceIdFor(await cachedElevenlabsVoices(), voice);
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

export type { HostedVoice };

const VOICES_TTL_MS = 10 * 60_000;
const voiceLists = new Map<string, { until: number; voices: Promise<HostedVoice[]> }>();

/** The voice list, fetched at most once per 10 minutes per origin and key: names are resolved on every named-voice request. */
function cachedElevenlabsVoices(): Promise<HostedVoice[]> {
  const slot = `${upstreamOrigin("elevenlabs", "https://api.elevenlabs.io")} ${requireCredential("elevenlabs speech", "ELEVENLABS_API_KEY")}`;
  const hit = voiceLists.get(slot);
  if (hit && hit.until > Date.now()) return hit.voices;
  const voices = elevenlabsVoices();
  voiceLists.set(slot, { until: Date.now() + VOICES_TTL_MS, voices });
  // A failed fetch is not kept: the next request tries again.
  voices.catch(() => voiceLists.get(slot)?.voices === voices && voiceLists.delete(slot));
  return voices;
}

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
