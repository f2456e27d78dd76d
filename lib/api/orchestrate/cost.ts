import type { Usage } from "../llm/chat-types.ts";
import type { ResearchUsage, Tier } from "./types.ts";

/**
 * Approximate list prices in USD per million tokens, [input, output], of each provider's tier models
 * (lib/upstream/llm-catalogue.ts) as published by the providers in 2025. Only an estimate for the
 * result's `estimated_cost_usd`: the meter records tokens, never money. The local runner is free.
 */
export const PRICES_PER_MILLION: Record<string, Record<string, readonly [number, number]>> = {
  xai: { "grok-3-mini": [0.3, 0.5], "grok-4-fast": [0.2, 0.5], "grok-4": [3, 15] },
  openai: { "gpt-4.1-nano": [0.1, 0.4], "gpt-4.1-mini": [0.4, 1.6], "gpt-4.1": [2, 8] },
  anthropic: { "claude-haiku-4-5": [1, 5], "claude-sonnet-4-5": [3, 15], "claude-opus-4-1": [15, 75] },
  mistral: { "mistral-small-latest": [0.1, 0.3], "mistral-medium-latest": [0.4, 2], "mistral-large-latest": [2, 6] },
  groq: {
    "llama-3.1-8b-instant": [0.05, 0.08],
    "llama-3.3-70b-versatile": [0.59, 0.79],
    "openai/gpt-oss-120b": [0.15, 0.75],
  },
  cohere: { "command-r7b-12-2024": [0.0375, 0.15], "command-r-08-2024": [0.15, 0.6], "command-a-03-2025": [2.5, 10] },
  gemini: { "gemini-2.5-flash-lite": [0.1, 0.4], "gemini-2.5-flash": [0.3, 2.5], "gemini-2.5-pro": [1.25, 10] },
  perplexity: { sonar: [1, 1], "sonar-pro": [3, 15], "sonar-reasoning-pro": [2, 8] },
  ollama: {},
};

/**
 * The price of a model: its own entry, else the longest listed name it starts with (providers answer
 * with dated or suffixed ids such as grok-4-fast-reasoning), else nothing known.
 */
export function priceOf(provider: string, model: string): readonly [number, number] | undefined {
  const table = PRICES_PER_MILLION[provider];
  if (!table) return undefined;
  if (table[model]) return table[model];
  const prefix = Object.keys(table)
    .filter((name) => model.startsWith(name))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? table[prefix] : undefined;
}

/** Estimated USD for one call's tokens; 0 for a model without a known price (never throws). */
export function estimateCostUsd(provider: string, model: string, usage: Usage): number {
  const price = priceOf(provider, model);
  if (!price) return 0;
  return (usage.prompt_tokens * price[0] + usage.completion_tokens * price[1]) / 1_000_000;
}

const TIERS: readonly Tier[] = ["cheap", "balanced", "premium"];

/** Adds up a run's calls by tier, with the cost estimated per call from the model that answered. */
export function usageTally() {
  const usage: ResearchUsage = {
    by_tier: Object.fromEntries(TIERS.map((t) => [t, { calls: 0, prompt_tokens: 0, completion_tokens: 0 }])) as never,
    prompt_tokens: 0,
    completion_tokens: 0,
    total_tokens: 0,
    estimated_cost_usd: 0,
  };
  let cost = 0;
  return {
    add(tier: Tier, reply: { provider: string; model: string; usage: Usage }): void {
      const t = usage.by_tier[tier];
      t.calls += 1;
      t.prompt_tokens += reply.usage.prompt_tokens;
      t.completion_tokens += reply.usage.completion_tokens;
      usage.prompt_tokens += reply.usage.prompt_tokens;
      usage.completion_tokens += reply.usage.completion_tokens;
      usage.total_tokens += reply.usage.prompt_tokens + reply.usage.completion_tokens;
      cost += estimateCostUsd(reply.provider, reply.model, reply.usage);
    },
    /** A copy, the cost rounded to a millionth of a dollar. */
    summary(): ResearchUsage {
      return {
        ...structuredClone(usage),
        estimated_cost_usd: Math.round(cost * 1_000_000) / 1_000_000,
      };
    },
  };
}

export type UsageTally = ReturnType<typeof usageTally>;
