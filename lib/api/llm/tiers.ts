import { GatewayError } from "../../errors.ts";
import {
  CHAT_PROVIDER_NAMES,
  isConfigured,
  PROVIDERS,
  providerEntry,
  TIER_PREFERENCE,
  type Tier,
} from "../../upstream/llm-catalogue.ts";

export type Selection = { provider: string; model: string; tier: Tier; configured: boolean; reason: string };

/**
 * The documented rule: the budget is the tier (default balanced). The provider is the one asked for,
 * else the first configured provider in that tier's preference order (cheap favours fast open models,
 * premium the strongest reasoning models); the model is that provider's model for the tier.
 * With nothing configured the choice is still made, marked `configured: false`.
 */
export function selectModel(task: string, budget: Tier = "balanced", provider?: string): Selection {
  if (!task.trim()) throw new GatewayError(400, "task must not be empty");
  if (provider) {
    const entry = providerEntry(provider);
    if (!entry)
      throw new GatewayError(400, `unknown provider '${provider}': use one of ${CHAT_PROVIDER_NAMES.join(", ")}`);
    return {
      provider,
      model: entry.tiers[budget],
      tier: budget,
      configured: isConfigured(entry),
      reason: `budget '${budget}' selects the ${budget} tier; ${provider} was requested, and its ${budget} model is ${entry.tiers[budget]}`,
    };
  }
  const order = TIER_PREFERENCE[budget];
  const chosen = order.map((n) => PROVIDERS.find((p) => p.name === n)!).find((p) => isConfigured(p));
  const entry = chosen ?? providerEntry(order[0]!)!;
  const why = chosen
    ? `${entry.name} is the first configured provider in the ${budget} preference order (${order.join(" > ")})`
    : `no provider is configured, so the first in the ${budget} preference order (${order.join(" > ")}) is named`;
  return {
    provider: entry.name,
    model: entry.tiers[budget],
    tier: budget,
    configured: Boolean(chosen),
    reason: `budget '${budget}' selects the ${budget} tier; ${why}; its ${budget} model is ${entry.tiers[budget]}`,
  };
}
