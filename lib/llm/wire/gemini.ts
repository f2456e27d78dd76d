// Gemini's native generateContent and Veo's long-running video operations, for what only that wire
// has (Google Search grounding, code execution, video): the request bodies and the answers read back.
// Pure functions; lib/llm/gemini-native.ts does the calls.
import { GatewayError } from "../../errors.ts";
import type { ChatMessage } from "../chat-types.ts";

type Part = {
  text?: string;
  executableCode?: { language?: string; code?: string };
  codeExecutionResult?: { outcome?: string; output?: string };
  inlineData?: { mimeType?: string; data?: string };
};

/** What the gateway reads of a generateContent answer. */
export type GenerateResponse = {
  candidates?: Array<{
    content?: { parts?: Part[] };
    groundingMetadata?: {
      webSearchQueries?: string[];
      groundingChunks?: Array<{ web?: { uri?: string; title?: string } }>;
    };
  }>;
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number };
};

/** What the gateway reads of a video operation. */
export type VideoOperation = {
  done?: boolean;
  error?: { message?: string };
  response?: { generateVideoResponse?: { generatedSamples?: Array<{ video?: { uri?: string } }> } };
};

export type VideoPoll = { done: false } | { done: true; videoUrl: string | null; error: string | null };

const tokens = (r: GenerateResponse) => ({
  promptTokens: r.usageMetadata?.promptTokenCount ?? 0,
  completionTokens: r.usageMetadata?.candidatesTokenCount ?? 0,
});

/**
 * A chat grounded with Google Search as a generateContent body: system messages become the system
 * instruction, the rest the contents. Gemini 1.5 models take the dynamic retrieval threshold; 2.x
 * models always ground through the google_search tool (the threshold does not apply to them).
 */
export function groundedRequest(messages: ChatMessage[], model: string, dynamicThreshold: number) {
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
  return {
    contents: messages
      .filter((m) => m.role !== "system")
      .map((m) => ({ role: m.role === "assistant" ? "model" : "user", parts: [{ text: m.content }] })),
    tools: [tool],
    ...(system ? { systemInstruction: { parts: [{ text: system }] } } : {}),
  };
}

/** A grounded answer: its text, the distinct web sources it cites, the searches it ran, and tokens. */
export function groundedAnswer(r: GenerateResponse, model: string) {
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

/** A prompt for Gemini's code execution tool as a generateContent body. */
export const codeRequest = (prompt: string) => ({
  contents: [{ role: "user", parts: [{ text: prompt }] }],
  tools: [{ code_execution: {} }],
});

/** A code execution answer: the code it ran, what it printed, the first chart it drew, its text, and tokens. */
export function codeAnswer(r: GenerateResponse, model: string) {
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

/** A Veo video request (predictLongRunning). */
export const videoRequest = (prompt: string, aspectRatio: string, durationSeconds: number) => ({
  instances: [{ prompt }],
  parameters: { aspectRatio, durationSeconds },
});

/** A video operation as polled: still running, or done with the video's URL or the failure. */
export function videoPoll(op: VideoOperation): VideoPoll {
  if (!op.done) return { done: false };
  if (op.error) return { done: true, videoUrl: null, error: op.error.message ?? "video generation failed" };
  return {
    done: true,
    videoUrl: op.response?.generateVideoResponse?.generatedSamples?.[0]?.video?.uri ?? null,
    error: null,
  };
}
