import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { Reply } from "../../../gateway/pipeline/answer.ts";
import { route, type Handler, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { poolErrors, runOnPool } from "../../../gateway/runtime/worker-pool.ts";
import { espeak } from "../pool-tasks.ts";
import {
  elevenlabsConfigured,
  elevenlabsSpeech,
  elevenlabsVoices,
  OPENAI_VOICES,
  openaiConfigured,
  openaiSpeech,
} from "../../../upstream/speech.ts";

/** espeak-ng's voices; the WASM module and its MP3 encoder load with the first speech request that needs them. */
const espeakLanguages = async () => (await import("./espeak.ts")).espeakLanguages();

export const TTS_PROVIDERS = ["espeak", "openai", "elevenlabs"] as const;
const MAX_CHARS = 5000;

const TtsBody = z.object({
  text: z.string().min(1).max(MAX_CHARS, `text is limited to ${MAX_CHARS} characters`),
  provider: z.enum(TTS_PROVIDERS).default("espeak"),
  voice: z.string().max(100).optional().openapi({
    description:
      "openai: alloy, echo, fable, onyx, nova, shimmer; elevenlabs: a voice id or name (see /v1/utils/voices)",
  }),
  lang: z.string().max(40).default("en").openapi({ description: "espeak only; see /v1/utils/languages" }),
  speed: z.number().min(0.25).max(4).default(1),
});

const unavailable = {
  503: jsonResponse(z.object({ error: z.string() }), "The provider is not configured or is limiting us"),
};

const tts = gatewayRoute("key", {
  method: "post",
  path: "/v1/utils/tts",
  summary: "Text to speech as MP3 (espeak offline by default; openai and elevenlabs when configured)",
  tags: ["Utilities"],
  request: jsonRequest(TtsBody),
  responses: {
    200: { description: "MP3 audio", content: { "audio/mpeg": { schema: z.string().openapi({ format: "binary" }) } } },
    ...keyedErrors,
    ...poolErrors,
    ...unavailable,
  },
});

const handleTts: Handler<typeof tts> = async (c, { body }) => {
  let audio: Uint8Array;
  if (body.provider === "espeak")
    audio = await runOnPool(c.runtime, espeak, { text: body.text, lang: body.lang, speed: body.speed }, "speech");
  else if (body.provider === "openai") audio = await openaiSpeech(body.text, body.voice, "tts-1", body.speed);
  else audio = await elevenlabsSpeech(body.text, body.voice);
  c.report({ provider: body.provider });
  return Reply.bytes(new Uint8Array(audio), "audio/mpeg");
};

const providers = gatewayRoute("key", {
  method: "get",
  path: "/v1/utils/tts/providers",
  summary: "Speech providers: capabilities, character limits, voices, and whether each is configured",
  tags: ["Utilities"],
  responses: {
    200: jsonResponse(z.object({ providers: z.array(z.record(z.string(), z.unknown())) }), "Providers"),
    ...keyedErrors,
  },
});

const handleProviders: Handler<typeof providers> = async () => {
  const espeakCount = (await espeakLanguages()).length;
  return {
    providers: [
      {
        name: "espeak",
        configured: true,
        default: true,
        offline: true,
        character_limit: MAX_CHARS,
        formats: ["mp3"],
        languages: espeakCount,
        voices: "one per language (see /v1/utils/languages)",
      },
      {
        name: "openai",
        configured: openaiConfigured(),
        offline: false,
        character_limit: MAX_CHARS,
        formats: ["mp3"],
        voices: [...OPENAI_VOICES],
        credential: "OPENAI_API_KEY",
      },
      {
        name: "elevenlabs",
        configured: elevenlabsConfigured(),
        offline: false,
        character_limit: MAX_CHARS,
        formats: ["mp3"],
        voices: "voice ids or names from /v1/utils/voices?provider=elevenlabs",
        credential: "ELEVENLABS_API_KEY",
      },
    ],
  };
};

async function voicesOf(provider: (typeof TTS_PROVIDERS)[number]): Promise<unknown> {
  if (provider === "openai") return OPENAI_VOICES.map((v) => ({ id: v, name: v }));
  if (provider === "espeak") return (await espeakLanguages()).map((l) => ({ id: l.code, name: l.name }));
  if (!elevenlabsConfigured()) return { error: "elevenlabs speech is not configured: set ELEVENLABS_API_KEY" };
  try {
    return await elevenlabsVoices();
  } catch (err) {
    return { error: (err as Error).message };
  }
}

const voices = gatewayRoute("key", {
  method: "get",
  path: "/v1/utils/voices",
  summary: "Voices by provider",
  tags: ["Utilities"],
  request: { query: z.object({ provider: z.enum([...TTS_PROVIDERS, "all"]).default("all") }) },
  responses: {
    200: jsonResponse(
      z.object({ voices: z.record(z.string(), z.unknown()) }),
      "Voices, or why a provider has none to show",
    ),
    ...keyedErrors,
  },
});

const handleVoices: Handler<typeof voices> = async (_c, { query: { provider } }) => {
  const chosen = provider === "all" ? TTS_PROVIDERS : [provider];
  const entries = await Promise.all(chosen.map(async (p) => [p, await voicesOf(p)] as const));
  return { voices: Object.fromEntries(entries) };
};

const languages = gatewayRoute("key", {
  method: "get",
  path: "/v1/utils/languages",
  summary: "Language codes espeak speaks",
  tags: ["Utilities"],
  responses: {
    200: jsonResponse(
      z.object({
        provider: z.literal("espeak"),
        count: z.number().int(),
        languages: z.array(z.object({ code: z.string(), name: z.string(), aliases: z.array(z.string()) })),
      }),
      "Codes to pass as lang",
    ),
    ...keyedErrors,
  },
});

const handleLanguages: Handler<typeof languages> = async () => {
  const list = await espeakLanguages();
  return { provider: "espeak" as const, count: list.length, languages: list };
};

export const speechRoutes: RouteDef[] = [
  route(tts, handleTts),
  route(providers, handleProviders),
  route(voices, handleVoices),
  route(languages, handleLanguages),
];
