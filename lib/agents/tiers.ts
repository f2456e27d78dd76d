import { GatewayError } from "../errors.ts";
import { CHAT_PROVIDER_NAMES, providerEntry, type ProviderEntry, type Tier } from "../upstream/llm-catalogue.ts";
import { configuredProvider } from "../llm/models.ts";

/** The tiers of a research run's three levels: who gathers, who synthesises, who writes the summary. */
export type TierPlan = { worker: Tier; synthesizer: Tier; summary: Tier };

/**
 * SPEC: workers on the cheap tier, synthesisers balanced, the summary premium; the budget
 * shifts all three one down (cheap) or up (premium), clamped at the ends.
 */
export const TIER_PLANS: Record<Tier, TierPlan> = {
  cheap: { worker: "cheap", synthesizer: "cheap", summary: "balanced" },
  balanced: { worker: "cheap", synthesizer: "balanced", summary: "premium" },
  premium: { worker: "balanced", synthesizer: "premium", summary: "premium" },
};

export const tierPlan = (budget: Tier): TierPlan => TIER_PLANS[budget];

/** The provider's entry, or 400 naming the valid ones. Unconfigured is fine here (names only). */
export function knownProvider(name: string): ProviderEntry {
  const entry = providerEntry(name);
  if (!entry) throw new GatewayError(400, `unknown provider '${name}': use one of ${CHAT_PROVIDER_NAMES.join(", ")}`);
  return entry;
}

/** The provider's model for a tier (400 for an unknown provider). */
export const tierModel = (provider: string, tier: Tier): string => knownProvider(provider).tiers[tier];

export type ResearchModels = { worker: string; synthesizer: string; summary: string };

/** The three levels' models for a provider and budget (400 for an unknown provider). */
export function researchModels(provider: string, budget: Tier): ResearchModels {
  const plan = tierPlan(budget);
  return {
    worker: tierModel(provider, plan.worker),
    synthesizer: tierModel(provider, plan.synthesizer),
    summary: tierModel(provider, plan.summary),
  };
}

/**
 * What a route checks before starting (or queueing) a run: 400 for an unknown provider, 503 naming
 * its variable when it is not configured; then its tiers and models for the budget.
 */
export function researchPlan(provider: string, budget: Tier): { tiers: TierPlan; models: ResearchModels } {
  configuredProvider(provider);
  return { tiers: tierPlan(budget), models: researchModels(provider, budget) };
}
