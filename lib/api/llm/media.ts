import { GatewayError } from "../../errors.ts";
import { upstreamJson } from "../../upstream/http.ts";
import { providerEntry } from "../../upstream/llm-catalogue.ts";
import { upstreamOrigin } from "../../upstream/origin.ts";
import { configuredProvider } from "../../llm/models.ts";

function openaiBase(): { url: string; key: string } {
  const entry = configuredProvider("openai");
  return {
    url: `${upstreamOrigin("openai", providerEntry("openai")!.origin)}/v1`,
    key: process.env[entry.credential]!.trim(),
  };
}

export type GeneratedImage = {
  url: string | null;
  b64_json: string | null;
  model: string;
  revised_prompt: string | null;
};

/** OpenAI's POST /v1/images/generations; returns the image URL (or inline base64 when the model only gives that). */
export async function generateImage(
  prompt: string,
  model: string,
  quality: "standard" | "hd",
  size: string,
): Promise<GeneratedImage> {
  const { url, key } = openaiBase();
  const body = await upstreamJson<{ data?: Array<{ url?: string; b64_json?: string; revised_prompt?: string }> }>(
    "openai",
    `${url}/images/generations`,
    {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model, prompt, n: 1, size, quality }),
    },
    120_000,
  );
  const image = body.data?.[0];
  if (!image || (!image.url && !image.b64_json)) throw new GatewayError(502, "openai returned no image");
  return {
    url: image.url ?? null,
    b64_json: image.b64_json ?? null,
    model,
    revised_prompt: image.revised_prompt ?? null,
  };
}

export const TRANSCRIBE_FORMATS = ["mp3", "mp4", "mpeg", "mpga", "m4a", "wav", "webm", "ogg", "flac"] as const;
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

export type Transcript = { text: string; language: string | null; duration: number | null };

/** OpenAI's POST /v1/audio/transcriptions (multipart), asking for verbose JSON to learn language and duration. */
export async function transcribe(
  file: File,
  language?: string,
  prompt?: string,
  model = "whisper-1",
): Promise<Transcript> {
  const ext = file.name.split(".").pop()?.toLowerCase() ?? "";
  if (!(TRANSCRIBE_FORMATS as readonly string[]).includes(ext)) {
    throw new GatewayError(
      400,
      `file must be one of ${TRANSCRIBE_FORMATS.join(", ")} (by its name's extension), not '${file.name}'`,
    );
  }
  if (file.size === 0) throw new GatewayError(400, "file is empty");
  if (file.size > MAX_AUDIO_BYTES)
    throw new GatewayError(413, `file is larger than ${MAX_AUDIO_BYTES / 1024 / 1024} MB`);
  const { url, key } = openaiBase();
  const form = new FormData();
  form.set("file", file, file.name);
  form.set("model", model);
  form.set("response_format", "verbose_json");
  if (language) form.set("language", language);
  if (prompt) form.set("prompt", prompt);
  const body = await upstreamJson<{ text?: string; language?: string; duration?: number }>(
    "openai",
    `${url}/audio/transcriptions`,
    { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form },
    300_000,
  );
  return { text: body.text ?? "", language: body.language ?? language ?? null, duration: body.duration ?? null };
}
