import { GatewayError } from "../errors.ts";
import { upstreamMaxBytes } from "../upstream/capped-body.ts";
import { OLLAMA_DEFAULT_ORIGIN } from "../upstream/llm-catalogue.ts";
import { upstreamOrigin } from "../upstream/origin.ts";
import { runnerJson, type Runner } from "./ollama.ts";

export const EMBEDDING_PROVIDERS = ["openai", "ollama"] as const;
export type EmbeddingProvider = (typeof EMBEDDING_PROVIDERS)[number];
export const DEFAULT_EMBEDDING_MODELS: Record<EmbeddingProvider, string> = {
  openai: "text-embedding-3-small",
  ollama: "nomic-embed-text",
};

// One embedding as JSON is some 200 KB at 8,192 dimensions: a runner sending far more per text is not answering.
const RUNNER_BYTES_PER_EMBEDDING = 1024 * 1024;

/** Embeddings in the order of their texts, the provider that made them, its model id and the tokens it counted. */
export type Embedded = { embeddings: number[][]; model: string; provider: string; tokens: number };

/** Embeds texts on an Ollama runner (its /api/embed): the operator's, unless a registered host is given. */
export async function embedOnRunner(
  texts: string[],
  model: string = DEFAULT_EMBEDDING_MODELS.ollama,
  signal?: AbortSignal,
  runner: Runner = { url: upstreamOrigin("ollama", OLLAMA_DEFAULT_ORIGIN), default: true },
): Promise<Embedded> {
  const body = await runnerJson<{ embeddings?: number[][]; model?: string; prompt_eval_count?: number }>(
    runner,
    "/api/embed",
    { method: "POST", body: JSON.stringify({ model, input: texts }), signal },
    60_000,
    Math.min(upstreamMaxBytes(), texts.length * RUNNER_BYTES_PER_EMBEDDING),
  );
  return {
    embeddings: body.embeddings ?? [],
    model: body.model ?? model,
    provider: "ollama",
    tokens: body.prompt_eval_count ?? 0,
  };
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
