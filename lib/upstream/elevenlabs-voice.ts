import { GatewayError } from "../errors.ts";

export type HostedVoice = { id: string; name: string };

// ElevenLabs voice ids are 20 letters and digits (Rachel is 21m00Tcm4TlvDq8ikWAM): those go upstream without a lookup.
const VOICE_ID = /^[A-Za-z0-9]{20}$/;

export const looksLikeVoiceId = (voice: string): boolean => VOICE_ID.test(voice);

/**
 * The voice id for a voice given by id or by name (case ignored), as the account's voice list has
 * them: the text-to-speech endpoint takes ids only and answers 404 `voice_not_found` to a name.
 */
export function voiceIdFor(voices: HostedVoice[], wanted: string): string {
  const byId = voices.find((v) => v.id === wanted);
  if (byId) return byId.id;
  const name = wanted.trim().toLowerCase();
  const byName = voices.find((v) => v.name.trim().toLowerCase() === name);
  if (byName) return byName.id;
  const some = voices.slice(0, 5).map((v) => `${v.name} (${v.id})`);
  const hint = some.length ? `; for example ${some.join(", ")}` : "";
  throw new GatewayError(
    400,
    `elevenlabs has no voice '${wanted}': give a voice id or name from /v1/utils/voices?provider=elevenlabs${hint}`,
  );
}
