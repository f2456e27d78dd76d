import { DEFAULT_PROVIDER, providerEntry } from "../upstream/llm-catalogue.ts";
import { knownProvider } from "./models.ts";

/** What /v1/llm/chat names: a provider and model apart, or an alias as the model, and its fallbacks. */
export type LlmChatModels = { provider?: string; model?: string; fallback?: readonly string[] };

/**
 * The router's names for a /v1/llm/chat request: an alias named as the model (with no provider) is the
 * alias; otherwise `provider/model`, the provider defaulting as it always has and the model to the
 * provider's default. A fallback is an alias, a `provider/model`, or a provider alone (its default
 * model, as `fallback` has always meant). An unknown provider is a 400 before anything is sent.
 */
export function llmRouteModels(
  aliases: { isAlias(name: string): boolean },
  body: LlmChatModels,
): { model: string; fallbacks: string[] } {
  const model =
    body.provider === undefined && body.model !== undefined && aliases.isAlias(body.model)
      ? body.model
      : providerModel(body.provider ?? DEFAULT_PROVIDER, body.model);
  const fallbacks = (body.fallback ?? []).map((name) =>
    aliases.isAlias(name) || name.includes("/") ? name : providerModel(name, undefined),
  );
  return { model, fallbacks };
}

/**
 * The router's name for a surface whose only model field is `provider` (templated generation, summaries):
 * an alias of the routing file, else the provider (default xai) and its default model; an unknown one is a 400.
 */
export function providerRouteModel(aliases: { isAlias(name: string): boolean }, provider = DEFAULT_PROVIDER): string {
  return aliases.isAlias(provider) ? provider : providerModel(provider, undefined);
}

function providerModel(provider: string, model: string | undefined): string {
  knownProvider(provider);
  return `${provider}/${model ?? providerEntry(provider)!.defaultModel}`;
}
