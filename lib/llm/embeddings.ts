import { createOpenAI } from "@ai-sdk/openai";
import { embedMany } from "ai";
import { GatewayError } from "../errors.ts";
import { cappedFetch, upstreamMaxBytes } from "../upstream/capped-body.ts";
import { OLLAMA_DEFAULT_ORIGIN, providerEntry } from "../upstream/llm-catalogue.ts";
import { upstreamOrigin } from "../upstream/origin.ts";
import { providerError } from "./errors.ts";
import { configuredProvider } from "./models.ts";
import { runnerJson, type Runner } from "./ollama.ts";

export const EMBEDDING_PROVIDERS = ["openai", "ollama"] as const;
export type EmbeddingProvider = (typeof EMBEDDING_PROVIDERS)[number];
export const DEFAULT_EMBEDDING_MODELS: Record<EmbeddingProvider, string> = {
  openai: "text-embedding-3-small",
  ollama: "nomic-embed-text",
};

// One embedding as JSON is some 200 KB at 8,192 dimensions: a runner sending far more per text is not answering.
const RUNNER_BYTES_PER_EMBEDDING = 1024 * 1024;

export type Embedded = { embeddings: number[][]; model: string; provider: EmbeddingProvider; tokens: number };

/** Embeds texts with OpenAI (through the AI SDK) or a local Ollama (its /api/embed). */
export async function embedTexts(
  texts: string[],
  provider: EmbeddingProvider = "openai",
  model?: string,
  signal?: AbortSignal,
  ollamaRunner?: Runner,
): Promise<Embedded> {
  const modelId = model ?? DEFAULT_EMBEDDING_MODELS[provider];
  if (provider === "ollama") {
    const body = await runnerJson<{ embeddings?: number[][]; model?: string; prompt_eval_count?: number }>(
      ollamaRunner ?? { url: upstreamOrigin("ollama", OLLAMA_DEFAULT_ORIGIN), default: true },
      "/api/embed",
      { method: "POST", body: JSON.stringify({ model: modelId, input: texts }), signal },
      60_000,
      Math.min(upstreamMaxBytes(), texts.length * RUNNER_BYTES_PER_EMBEDDING),
    );
    return {
      embeddings: body.embeddings ?? [],
      model: body.model ?? modelId,
      provider,
      tokens: body.prompt_eval_count ?? 0,
    };
  }
  const entry = configuredProvider("openai");
  const openai = createOpenAI({
    apiKey: process.env[entry.credential]!.trim(),
    baseURL: `${upstreamOrigin("openai", providerEntry("openai")!.origin)}/v1`,
    fetch: cappedFetch("openai"),
  });
  try {
    const result = await embedMany({
      model: openai.embedding(modelId),
      values: texts,
      maxRetries: 0,
      abortSignal: signal,
    });
    return { embeddings: result.embeddings, model: modelId, provider, tokens: result.usage?.tokens ?? 0 };
  } catch (err) {
    throw providerError("openai", err);
  }
}

export function cosine(a: number[], b: number[]): number {
  if (a.length !== b.length || a.length === 0)
    throw new GatewayError(502, "the provider returned embeddings of different sizes");
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
