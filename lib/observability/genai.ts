import type { Attributes } from "@opentelemetry/api";

/**
 * The OpenTelemetry GenAI semantic conventions' names for the gateway's providers: what
 * `gen_ai.system` (and its successor `gen_ai.provider.name`) say, so a backend's GenAI views group
 * them with other clients' spans. A provider the conventions do not name keeps its own.
 */
const SYSTEM: Record<string, string> = {
  openai: "openai",
  anthropic: "anthropic",
  gemini: "gcp.gemini",
  mistral: "mistral_ai",
  groq: "groq",
  cohere: "cohere",
  xai: "xai",
  perplexity: "perplexity",
  ollama: "ollama",
};

export type GenAiOperation = "chat" | "embeddings";

/** What a model call's attempt span starts with: the operation, the system, the model asked for, the deployment. */
export function attemptAttributes(
  operation: GenAiOperation,
  provider: string,
  model: string,
  deployment: string,
  attempt: number,
): Attributes {
  const system = SYSTEM[provider] ?? provider;
  return {
    "gen_ai.operation.name": operation,
    "gen_ai.system": system,
    "gen_ai.provider.name": system,
    "gen_ai.request.model": model,
    "gateway.deployment": deployment,
    "gateway.attempt": attempt,
  };
}

/** An answer's usage as a model call reports it (the metered UsageDetail has this shape among its fields). */
export type AnswerUsage = { model?: string; promptTokens?: number; completionTokens?: number };

/** What the answer's usage adds to the span of the attempt that answered. */
export function usageAttributes(usage: AnswerUsage): Attributes {
  const attributes: Attributes = {};
  if (usage.model !== undefined) attributes["gen_ai.response.model"] = usage.model;
  if (usage.promptTokens !== undefined) attributes["gen_ai.usage.input_tokens"] = usage.promptTokens;
  if (usage.completionTokens !== undefined) attributes["gen_ai.usage.output_tokens"] = usage.completionTokens;
  return attributes;
}
