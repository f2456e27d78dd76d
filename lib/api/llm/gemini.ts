import { GatewayError } from "../../errors.ts";
import { toSafeText } from "../../gateway/http/safe-text.ts";
import { upstreamJson } from "../../upstream/http.ts";
import { providerEntry } from "../../upstream/llm-catalogue.ts";
import { upstreamOrigin } from "../../upstream/origin.ts";
import type { ChatMessage } from "../../llm/chat-types.ts";
import { configuredProvider } from "../../llm/models.ts";

export const GROUNDING_MODEL_DEFAULT = "gemini-2.5-flash";
export const VIDEO_MODEL_DEFAULT = "veo-3.0-generate-001";

type Part = {
  text?: string;
  executableCode?: { language?: string; code?: string };
  codeExecutionResult?: { outcome?: string; output?: string };
  inlineData?: { mimeType?: string; data?: string };
};
type GenerateResponse = {
  candidates?: Array<{
    content?: { parts?: Part[] };
    groundingMetadata?: {
      webSearchQueries?: string[];
      groundingChunks?: Array<{ web?: { uri?: string; title?: string } }>;
    };
  }>;
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number };
};

function gemini(): { base: string; key: string } {
  const entry = configuredProvider("gemini");
  return {
    base: `${upstreamOrigin("gemini", providerEntry("gemini")!.origin)}/v1beta`,
    key: process.env[entry.credential]!.trim(),
  };
}

function contents(messages: ChatMessage[]) {
  return messages
    .filter((m) => m.role !== "system")
    .map((m) => ({ role: m.role === "assistant" ? "model" : "user", parts: [{ text: m.content }] }));
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

const tokens = (r: GenerateResponse) => ({
  promptTokens: r.usageMetadata?.promptTokenCount ?? 0,
  completionTokens: r.usageMetadata?.candidatesTokenCount ?? 0,
});

/**
 * Gemini with Google Search grounding. Gemini 1.5 models take the dynamic retrieval threshold;
 * 2.x models always ground through the google_search tool (the threshold does not apply to them).
 */
export async function groundedChat(messages: ChatMessage[], model = GROUNDING_MODEL_DEFAULT, dynamicThreshold = 0.3) {
  const system = messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n\n");
  const tool = model.startsWith("gemini-1.5")
    ? {
        google_search_retrieval: {
          dynamic_retrieval_config: { mode: "MODE_DYNAMIC", dynamic_threshold: dynamicThreshold },
        },
      }
    : { google_search: {} };
  const r = await generate(model, {
    contents: contents(messages),
    tools: [tool],
    ...(system ? { systemInstruction: { parts: [{ text: system }] } } : {}),
  });
  const candidate = r.candidates?.[0];
  if (!candidate) throw new GatewayError(502, "gemini returned no answer");
  const seen = new Set<string>();
  const sources = (candidate.groundingMetadata?.groundingChunks ?? [])
    .map((c) => ({ title: c.web?.title ?? "", uri: c.web?.uri ?? "" }))
    .filter((s) => s.uri && !seen.has(s.uri) && seen.add(s.uri));
  return {
    content: (candidate.content?.parts ?? []).map((p) => p.text ?? "").join(""),
    grounding_sources: sources,
    search_queries: candidate.groundingMetadata?.webSearchQueries ?? [],
    model,
    ...tokens(r),
  };
}

/** Gemini's code execution tool: the code it ran, what it printed, and the first chart it drew. */
export async function executeCode(prompt: string, model = GROUNDING_MODEL_DEFAULT) {
  const r = await generate(model, {
    contents: [{ role: "user", parts: [{ text: prompt }] }],
    tools: [{ code_execution: {} }],
  });
  const parts = r.candidates?.[0]?.content?.parts ?? [];
  if (parts.length === 0) throw new GatewayError(502, "gemini returned no answer");
  return {
    code: parts
      .filter((p) => p.executableCode?.code)
      .map((p) => p.executableCode!.code!)
      .join("\n\n"),
    output: parts
      .filter((p) => p.codeExecutionResult)
      .map((p) => p.codeExecutionResult!.output ?? "")
      .join(""),
    chart: parts.find((p) => p.inlineData?.mimeType === "image/png")?.inlineData?.data ?? null,
    content: parts
      .filter((p) => p.text)
      .map((p) => p.text!)
      .join(""),
    model,
    ...tokens(r),
  };
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
      body: JSON.stringify({ instances: [{ prompt }], parameters: { aspectRatio, durationSeconds } }),
    },
  );
  if (!op.name) throw new GatewayError(502, "gemini did not start the video");
  return op.name;
}

export type VideoPoll = { done: false } | { done: true; videoUrl: string | null; error: string | null };

export async function pollVideo(operation: string): Promise<VideoPoll> {
  const { base, key } = gemini();
  const op = await upstreamJson<{
    done?: boolean;
    error?: { message?: string };
    response?: { generateVideoResponse?: { generatedSamples?: Array<{ video?: { uri?: string } }> } };
  }>("gemini", `${base}/${operation}`, { headers: { "x-goog-api-key": key } });
  if (!op.done) return { done: false };
  if (op.error) return { done: true, videoUrl: null, error: op.error.message ?? "video generation failed" };
  return {
    done: true,
    videoUrl: op.response?.generateVideoResponse?.generatedSamples?.[0]?.video?.uri ?? null,
    error: null,
  };
}
