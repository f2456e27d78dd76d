import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { GatewayError } from "../errors.ts";
import { cappedFetch } from "../upstream/capped-body.ts";
import { upstreamOrigin } from "../upstream/origin.ts";
import { CHAT_PROVIDER_NAMES, isConfigured, providerEntry, type ProviderEntry } from "../upstream/llm-catalogue.ts";

/** The provider's entry, or 400 for an unknown name. */
export function knownProvider(name: string): ProviderEntry {
  const entry = providerEntry(name);
  if (!entry) throw new GatewayError(400, `unknown provider '${name}': use one of ${CHAT_PROVIDER_NAMES.join(", ")}`);
  return entry;
}

/** The provider's entry, or 400 for an unknown name and 503 (naming the variable) when unconfigured. */
export function configuredProvider(name: string): ProviderEntry {
  const entry = knownProvider(name);
  if (!isConfigured(entry)) throw new GatewayError(503, `${name} is not configured: set ${entry.credential}`);
  return entry;
}

/**
 * The key sent to the provider: the one the entry carries (an owner's own), else its credential
 * variable's. Ollama ignores it; its "credential" variable is its origin.
 */
export function providerApiKey(entry: ProviderEntry): string {
  if (entry.apiKey) return entry.apiKey;
  return entry.keyless ? "ollama" : process.env[entry.credential]!.trim();
}

/** Where the provider's API lives: a deployment's own origin, else its origin (or UPSTREAM_<NAME>_URL), and base path. */
export function providerBaseURL(entry: ProviderEntry): string {
  return `${entry.fixedOrigin ?? upstreamOrigin(entry.name, entry.origin)}${entry.basePath}`;
}

// Models are built once per provider, model, key and address (the last two change only when the
// operator changes the environment), not per request.
const models = new Map<string, LanguageModel>();
const MAX_MODELS = 256;

/** An AI SDK model for the provider, pointed at its origin (or UPSTREAM_<NAME>_URL); built once and reused. */
export function languageModel(entry: ProviderEntry, modelId: string): LanguageModel {
  const apiKey = providerApiKey(entry);
  const baseURL = providerBaseURL(entry);
  const id = `${entry.name}\u0000${modelId}\u0000${apiKey}\u0000${baseURL}`;
  let model = models.get(id);
  if (!model) {
    // Model ids come from callers: a bound keeps a stream of made-up ids from growing the map.
    if (models.size >= MAX_MODELS) models.delete(models.keys().next().value!);
    model = buildModel(entry, modelId, apiKey, baseURL);
    models.set(id, model);
  }
  return model;
}

function buildModel(entry: ProviderEntry, modelId: string, apiKey: string, baseURL: string): LanguageModel {
  const fetch = cappedFetch(entry.name);
  switch (entry.wire) {
    case "anthropic":
      return createAnthropic({ apiKey, baseURL, fetch })(modelId);
    case "openai":
      // Chat Completions, the wire every OpenAI-compatible provider shares.
      return createOpenAI({ apiKey, baseURL, fetch }).chat(modelId);
    case "openai-compatible":
      return createOpenAICompatible({
        name: entry.name,
        apiKey,
        baseURL,
        includeUsage: true,
        supportsStructuredOutputs: entry.structuredOutputs === true,
        fetch,
      })(modelId);
  }
}
