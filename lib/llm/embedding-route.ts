import { GatewayError } from "../errors.ts";
import type { Call } from "../gateway/pipeline/call.ts";
import type { CallStop } from "../upstream/call-stop.ts";
import { CHAT_PROVIDER_NAMES, providerEntry } from "../upstream/llm-catalogue.ts";
import type { ChatTarget } from "./call/index.ts";
import { llmTimeoutMs } from "./chat.ts";
import { chatRoute } from "./compat/routed.ts";
import { requestAnswerId } from "./compat/target.ts";
import type { AliasCachePolicy } from "./routing/config.ts";
import { DEFAULT_EMBEDDING_MODELS, EMBEDDING_PROVIDERS, type EmbeddingProvider } from "./embeddings.ts";

/** The model an embeddings request names: an alias of the routing file, else a provider and its model id. */
export type EmbeddingModel = { alias: string } | { provider: EmbeddingProvider; model: string };

type Aliases = { has(name: string): boolean };

const isEmbeddingProvider = (name: string): name is EmbeddingProvider =>
  (EMBEDDING_PROVIDERS as readonly string[]).includes(name);

const notEmbedding = (provider: string) =>
  new GatewayError(400, `embeddings come from ${EMBEDDING_PROVIDERS.join(" or ")}, not ${provider}`);

/** /v1/embeddings' `model`: an alias, `provider/model`, or a bare model id, which is OpenAI's. */
export function compatEmbeddingModel(model: string, aliases: Aliases): EmbeddingModel {
  if (aliases.has(model)) return { alias: model };
  const slash = model.indexOf("/");
  if (slash <= 0) return { provider: "openai", model };
  const provider = model.slice(0, slash);
  if (!isEmbeddingProvider(provider)) throw notEmbedding(provider);
  return { provider, model: model.slice(slash + 1) };
}

/**
 * /v1/llm/embed…'s `model` and `provider`: an alias, a `provider/model` (whose provider wins over the
 * field), or a model id of the provider the field names; no model is that provider's default.
 */
export function llmEmbeddingModel(
  model: string | undefined,
  provider: EmbeddingProvider,
  aliases: Aliases,
): EmbeddingModel {
  if (model === undefined) return { provider, model: DEFAULT_EMBEDDING_MODELS[provider] };
  if (aliases.has(model)) return { alias: model };
  const slash = model.indexOf("/");
  const prefix = model.slice(0, Math.max(slash, 0));
  if (!CHAT_PROVIDER_NAMES.includes(prefix)) return { provider, model };
  if (!isEmbeddingProvider(prefix)) throw notEmbedding(prefix);
  return { provider: prefix, model: model.slice(slash + 1) };
}

/**
 * Runs an embeddings attempt where the model goes: an alias or an OpenAI model through the model router
 * (retries, fallbacks, breakers, the x-gateway-* headers), within the request's deadline. Ollama's own
 * models go straight to the operator's runner, which answers at its default address with no variable set
 * as it always has (the router would skip it as not configured). The attempt's stop is released when it ends.
 */
export async function embedThroughRouter<T>(
  c: Call,
  which: EmbeddingModel,
  attempt: (target: ChatTarget, stop: CallStop) => Promise<T>,
): Promise<T> {
  return (await embeddingCall(c, which)).run(attempt);
}

/** An embeddings call once its route is known (the key's model rules applied), before it runs. */
export type EmbeddingCall = {
  /** The alias's response cache policy, when the routing file gives one. */
  policy?: AliasCachePolicy;
  run<T>(attempt: (target: ChatTarget, stop: CallStop) => Promise<T>): Promise<T>;
};

/** Where an embeddings call goes (embedThroughRouter), planned and not yet run: a cache hit runs nothing. */
export async function embeddingCall(c: Call, which: EmbeddingModel): Promise<EmbeddingCall> {
  const released =
    <T>(attempt: (target: ChatTarget, stop: CallStop) => Promise<T>) =>
    (target: ChatTarget, stop: CallStop) =>
      attempt(target, stop).finally(() => stop.release());
  if ("alias" in which || which.provider !== "ollama") {
    const model = "alias" in which ? which.alias : `${which.provider}/${which.model}`;
    const route = await chatRoute(c, model, requestAnswerId("emb-", c.requestId), { operation: "embeddings" });
    return {
      ...(route.plan.cache && { policy: route.plan.cache }),
      run: (attempt) => route.whole(released(attempt)),
    };
  }
  const target: ChatTarget = {
    entry: providerEntry("ollama")!,
    modelId: which.model,
    name: `ollama/${which.model}`,
    id: requestAnswerId("emb-", c.requestId),
    created: Math.floor(Date.now() / 1000),
  };
  return { run: (attempt) => released(attempt)(target, c.stop(llmTimeoutMs())) };
}
