import type { Database } from "../db/client.ts";
import { bestPrice, type Price } from "./price-match.ts";
import type { FeatureUse } from "./usage-event.ts";

export type { Price };

/**
 * The default prices: approximate list prices of each provider's tier models
 * (lib/upstream/llm-catalogue.ts) as published by the providers in 2025. The operator overrides or adds
 * models from the admin portal (`model_prices`); every estimate (request log, usage, budgets, research
 * results) reads the one table those make together. The local runner is free.
 */
export const DEFAULT_PRICES: Readonly<Record<string, Readonly<Record<string, Price>>>> = {
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
 * USD per use of a provider feature billed beyond tokens (FeatureUse, metered when the operator allows
 * the feature through: LLM_PASSTHROUGH_FEATURES), at the provider's list price: Anthropic's web search is
 * $10 per 1,000 searches. A feature without a price here (a service tier, priced as a share of tokens) is
 * counted, not priced.
 */
export const FEATURE_PRICES: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  anthropic: { web_search: 0.01 },
};

/** Estimated USD of a call's (or a day's) feature uses; 0 for features without a price. */
export function featureCost(provider: string, features: FeatureUse | undefined): number {
  const prices = FEATURE_PRICES[provider];
  if (!prices || !features) return 0;
  let usd = 0;
  for (const [feature, uses] of Object.entries(features)) usd += uses * (prices[feature] ?? 0);
  return usd;
}

/** One row of the effective table, as the admin page lists it. */
export type PriceRow = {
  provider: string;
  model: string;
  input: number;
  output: number;
  source: "default" | "operator";
};

type PriceOverride = { provider: string; model: string; price: Price };

/** The defaults with the routing file's deployment prices, then the operator's rows, laid over them. */
export function mergePrices(overrides: readonly PriceOverride[], routing: readonly PriceOverride[] = []) {
  const table = new Map<string, Map<string, Price>>();
  for (const [provider, models] of Object.entries(DEFAULT_PRICES)) table.set(provider, new Map(Object.entries(models)));
  for (const o of [...routing, ...overrides]) {
    const models = table.get(o.provider) ?? new Map<string, Price>();
    models.set(o.model, o.price);
    table.set(o.provider, models);
  }
  return table;
}

type PriceState = {
  table: Map<string, Map<string, Price>>;
  overrides: Set<string>;
  rows: PriceOverride[];
  routing: PriceOverride[];
};
type PriceGlobal = typeof globalThis & { __gatewayPrices?: PriceState };

/**
 * The process's table, on globalThis because Next bundles route handlers apart from server.ts (as the
 * runtime is); starts as the defaults, and `loadPrices` lays the operator's rows over it.
 */
function state(): PriceState {
  const g = globalThis as PriceGlobal;
  g.__gatewayPrices ??= { table: mergePrices([]), overrides: new Set(), rows: [], routing: [] };
  return g.__gatewayPrices;
}

/**
 * The price of a model: its own entry, else the longest listed name it starts with (providers answer
 * with dated or suffixed ids such as grok-4-fast-reasoning), else nothing known.
 */
export function priceOf(provider: string, model: string): Price | undefined {
  const models = state().table.get(provider);
  return models ? bestPrice(models, model) : undefined;
}

/** Estimated USD for tokens of one model; undefined when the model has no price (the local runner, say). */
export function estimateCost(provider: string, model: string, prompt: number, completion: number): number | undefined {
  const price = priceOf(provider, model);
  return price ? (prompt * price[0] + completion * price[1]) / 1_000_000 : undefined;
}

/** Every priced model, defaults and the operator's, sorted by provider and model. */
export function listPrices(): PriceRow[] {
  const { table, overrides } = state();
  return [...table]
    .flatMap(([provider, models]) =>
      [...models].map(([model, [input, output]]) => ({
        provider,
        model,
        input,
        output,
        source: overrides.has(`${provider}\u0000${model}`) ? ("operator" as const) : ("default" as const),
      })),
    )
    .sort((a, b) => a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model));
}

/** Reads the operator's prices into this process's table (at start, on a timer, after an edit). */
export async function loadPrices(db: Database): Promise<void> {
  const rows = await db.prisma.modelPrice.findMany();
  const s = state();
  s.rows = rows.map((r) => ({ provider: r.provider, model: r.model, price: [r.inputPerMillion, r.outputPerMillion] }));
  s.table = mergePrices(s.rows, s.routing);
  s.overrides = new Set(rows.map((r) => `${r.provider}\u0000${r.model}`));
}

/**
 * The routing file's deployment prices (`price: {input, output}`), laid over the defaults for their
 * provider and model and under the operator's own rows (the admin price table wins): set at start and
 * on every reload of the file.
 */
export function setRoutingPrices(prices: readonly PriceOverride[]): void {
  const s = state();
  s.routing = [...prices];
  s.table = mergePrices(s.rows, s.routing);
}

/** Sets the operator's price for a model (a default one or a new one) and reloads the table. */
export async function savePrice(
  db: Database,
  p: { provider: string; model: string; input: number; output: number },
  by: string,
): Promise<void> {
  const data = { inputPerMillion: p.input, outputPerMillion: p.output, updatedAt: new Date(), updatedBy: by };
  await db.prisma.modelPrice.upsert({
    where: { provider_model: { provider: p.provider, model: p.model } },
    create: { provider: p.provider, model: p.model, ...data },
    update: data,
  });
  await loadPrices(db);
}

/** Drops the operator's price for a model: its default applies again, or none. */
export async function resetPrice(db: Database, provider: string, model: string): Promise<void> {
  await db.prisma.modelPrice.deleteMany({ where: { provider, model } });
  await loadPrices(db);
}
