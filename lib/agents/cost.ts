import type { Usage } from "../llm/chat-types.ts";
import { estimateCost } from "../usage/prices.ts";
import type { ResearchUsage, Tier } from "./types.ts";

export { priceOf } from "../usage/prices.ts";

/**
 * Estimated USD for one call's tokens, from the one price table (lib/usage/prices.ts: defaults in code,
 * the operator's edits over them); 0 for a model without a known price (never throws).
 */
export function estimateCostUsd(provider: string, model: string, usage: Usage): number {
  return estimateCost(provider, model, usage.prompt_tokens, usage.completion_tokens) ?? 0;
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
