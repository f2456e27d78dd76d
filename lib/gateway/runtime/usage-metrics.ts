import type { Counter } from "prom-client";
import { estimateCost, featureCost } from "../../usage/prices.ts";
import type { CacheUse, UsageEventInput } from "../../usage/usage-event.ts";

/** Distinct model label values kept per provider in one process; later models are counted as OTHER_MODEL. */
export const MODEL_LABELS_PER_PROVIDER = 100;
export const OTHER_MODEL = "other";

/**
 * The model's label value: itself while fewer than `limit` models of its provider have been labelled
 * in this process, OTHER_MODEL past that. Clients and providers name models, so without a bound one
 * client could grow /metrics (and the scraper's storage) without end. `seen` is the caller's record.
 */
export function modelLabel(
  seen: Map<string, Set<string>>,
  provider: string,
  model: string,
  limit = MODEL_LABELS_PER_PROVIDER,
): string {
  let models = seen.get(provider);
  if (!models) seen.set(provider, (models = new Set()));
  if (models.has(model)) return model;
  if (models.size >= limit) return OTHER_MODEL;
  models.add(model);
  return model;
}

export type UsageCounters = {
  llmTokens: Counter<"provider" | "model" | "direction">;
  llmCost: Counter<"provider" | "model">;
  llmRequests: Counter<"provider" | "model" | "route" | "status_class">;
  llmCache: Counter<"route" | "result">;
  llmCacheSavedUsd: Counter;
  /** Model label values given so far, per provider (modelLabel). */
  modelLabels: Map<string, Set<string>>;
};

/**
 * Counts a recorded model call's tokens, estimated cost and outcome; calls that report no provider cost
 * nothing here. The cost is what the budgets count (amountOf): tokens at the price table's rates plus
 * the priced features the provider billed beyond tokens (web searches), so the two agree.
 */
export function countUsage(counters: UsageCounters, event: UsageEventInput): void {
  if (event.cache) countCache(counters, event.route, event.cache);
  const { provider } = event;
  if (provider === undefined) return;
  const model = event.model ?? "";
  const labels = { provider, model: modelLabel(counters.modelLabels, provider, model) };
  const prompt = event.promptTokens ?? 0;
  const completion = event.completionTokens ?? 0;
  counters.llmTokens.inc({ ...labels, direction: "input" }, prompt);
  counters.llmTokens.inc({ ...labels, direction: "output" }, completion);
  // Priced by the real model, so a model counted as "other" still adds its cost.
  const tokensUsd = estimateCost(provider, model, prompt, completion);
  const featuresUsd = featureCost(provider, event.features);
  if (tokensUsd !== undefined || featuresUsd > 0) counters.llmCost.inc(labels, (tokensUsd ?? 0) + featuresUsd);
  counters.llmRequests.inc({ ...labels, route: event.route, status_class: `${Math.floor(event.status / 100)}xx` });
}

/** A model call that asked for the response cache: hit, semantic hit or miss by route, and what a hit did not pay. */
function countCache(counters: UsageCounters, route: string, cache: CacheUse): void {
  counters.llmCache.inc({
    route,
    result: cache.state === "hit" && cache.similarity !== undefined ? "semantic_hit" : cache.state,
  });
  if (cache.state !== "hit") return;
  const saved = estimateCost(cache.provider, cache.model, cache.promptTokens, cache.completionTokens);
  if (saved !== undefined) counters.llmCacheSavedUsd.inc(saved);
}
