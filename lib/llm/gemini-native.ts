// Calls on Gemini's native API for what its OpenAI-compatible endpoint lacks: grounding with Google
// Search, code execution, and Veo videos. The wire (bodies and answers) is lib/llm/wire/gemini.ts.
import { GatewayError } from "../errors.ts";
import { toSafeText } from "../gateway/http/safe-text.ts";
import { upstreamJson } from "../upstream/http.ts";
import { providerEntry } from "../upstream/llm-catalogue.ts";
import { upstreamOrigin } from "../upstream/origin.ts";
import type { ChatMessage } from "./chat-types.ts";
import { configuredProvider } from "./models.ts";
import {
  codeAnswer,
  codeRequest,
  groundedAnswer,
  groundedRequest,
  videoPoll,
  videoRequest,
  type GenerateResponse,
  type VideoOperation,
  type VideoPoll,
} from "./wire/gemini.ts";

export const GROUNDING_MODEL_DEFAULT = "gemini-2.5-flash";
export const VIDEO_MODEL_DEFAULT = "veo-3.0-generate-001";

export type { VideoPoll } from "./wire/gemini.ts";

function gemini(): { base: string; key: string } {
  const entry = configuredProvider("gemini");
  return {
    base: `${upstreamOrigin("gemini", providerEntry("gemini")!.origin)}/v1beta`,
    key: process.env[entry.credential]!.trim(),
  };
}

async function generate(model: string, body: Record<string, unknown>): Promise<GenerateResponse> {
  const { base, key } = gemini();
  return upstreamJson<GenerateResponse>(
    "gemini",
    `${base}/models/${encodeURIComponent(toSafeText(model))}:generateContent`,
    {
      method: "POST",
      headers: { "x-goog-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(body),
    },
    120_000,
  );
}

/** Gemini with Google Search grounding. */
export async function groundedChat(messages: ChatMessage[], model = GROUNDING_MODEL_DEFAULT, dynamicThreshold = 0.3) {
  return groundedAnswer(await generate(model, groundedRequest(messages, model, dynamicThreshold)), model);
}

/** Gemini's code execution tool: the code it ran, what it printed, and the first chart it drew. */
export async function executeCode(prompt: string, model = GROUNDING_MODEL_DEFAULT) {
  return codeAnswer(await generate(model, codeRequest(prompt)), model);
}

/** Starts a Veo video (predictLongRunning); returns the operation name to poll. */
export async function startVideo(
  prompt: string,
  aspectRatio: string,
  durationSeconds: number,
  model = VIDEO_MODEL_DEFAULT,
): Promise<string> {
  const { base, key } = gemini();
  const op = await upstreamJson<{ name?: string }>(
    "gemini",
    `${base}/models/${encodeURIComponent(toSafeText(model))}:predictLongRunning`,
    {
      method: "POST",
      headers: { "x-goog-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(videoRequest(prompt, aspectRatio, durationSeconds)),
    },
  );
  if (!op.name) throw new GatewayError(502, "gemini did not start the video");
  return op.name;
}

export async function pollVideo(operation: string): Promise<VideoPoll> {
  const { base, key } = gemini();
  return videoPoll(
    await upstreamJson<VideoOperation>("gemini", `${base}/${operation}`, { headers: { "x-goog-api-key": key } }),
  );
}
