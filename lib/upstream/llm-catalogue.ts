/**
 * Language-model providers: credential, origin, wire format, and the models the gateway picks by
 * default and per budget tier. One table, so adding a provider is one entry. A caller can always name
 * any model the provider serves; these are only the defaults.
 */
export type Tier = "cheap" | "balanced" | "premium";
export type Wire = "openai-compatible" | "openai" | "anthropic";

export type ProviderEntry = {
  name: string;
  credential: string;
  origin: string;
  /** A routing deployment's own origin, which UPSTREAM_<NAME>_URL does not replace (it names the provider's). */
  fixedOrigin?: string;
  /** Path under the origin where the provider's API lives. */
  basePath: string;
  wire: Wire;
  defaultModel: string;
  tiers: Record<Tier, string>;
  thinking: boolean;
  /** Needs no credential; configured once its origin variable (the `credential` field) is set. */
  keyless?: boolean;
  /** Takes `response_format: json_schema` (OpenAI-compatible wire): structured output is sent the schema. */
  structuredOutputs?: boolean;
  /**
   * The key itself, sent instead of the `credential` variable's: an owner's own provider key, set by
   * the model router on one attempt's entry (lib/llm/routing/owner-keys.ts). Never on a shared entry.
   */
  apiKey?: string;
};

export const PROVIDERS: ProviderEntry[] = [
  {
    name: "xai",
    credential: "XAI_API_KEY",
    origin: "https://api.x.ai",
    basePath: "/v1",
    wire: "openai-compatible",
    defaultModel: "grok-4-fast",
    tiers: { cheap: "grok-3-mini", balanced: "grok-4-fast", premium: "grok-4" },
    thinking: false,
    structuredOutputs: true,
  },
  {
    name: "openai",
    credential: "OPENAI_API_KEY",
    origin: "https://api.openai.com",
    basePath: "/v1",
    wire: "openai",
    defaultModel: "gpt-4.1-mini",
    tiers: { cheap: "gpt-4.1-nano", balanced: "gpt-4.1-mini", premium: "gpt-4.1" },
    thinking: false,
  },
  {
    name: "anthropic",
    credential: "ANTHROPIC_API_KEY",
    origin: "https://api.anthropic.com",
    basePath: "/v1",
    wire: "anthropic",
    defaultModel: "claude-sonnet-4-5",
    tiers: { cheap: "claude-haiku-4-5", balanced: "claude-sonnet-4-5", premium: "claude-opus-4-1" },
    thinking: true,
  },
  {
    name: "mistral",
    credential: "MISTRAL_API_KEY",
    origin: "https://api.mistral.ai",
    basePath: "/v1",
    wire: "openai-compatible",
    defaultModel: "mistral-medium-latest",
    tiers: { cheap: "mistral-small-latest", balanced: "mistral-medium-latest", premium: "mistral-large-latest" },
    thinking: false,
  },
  {
    name: "groq",
    credential: "GROQ_API_KEY",
    origin: "https://api.groq.com",
    basePath: "/openai/v1",
    wire: "openai-compatible",
    defaultModel: "llama-3.3-70b-versatile",
    tiers: { cheap: "llama-3.1-8b-instant", balanced: "llama-3.3-70b-versatile", premium: "openai/gpt-oss-120b" },
    thinking: false,
  },
  {
    name: "cohere",
    credential: "COHERE_API_KEY",
    origin: "https://api.cohere.com",
    basePath: "/compatibility/v1",
    wire: "openai-compatible",
    defaultModel: "command-a-03-2025",
    tiers: { cheap: "command-r7b-12-2024", balanced: "command-r-08-2024", premium: "command-a-03-2025" },
    thinking: false,
  },
  {
    name: "gemini",
    credential: "GEMINI_API_KEY",
    origin: "https://generativelanguage.googleapis.com",
    basePath: "/v1beta/openai",
    wire: "openai-compatible",
    defaultModel: "gemini-2.5-flash",
    tiers: { cheap: "gemini-2.5-flash-lite", balanced: "gemini-2.5-flash", premium: "gemini-2.5-pro" },
    thinking: false,
  },
  {
    name: "ollama",
    credential: "UPSTREAM_OLLAMA_URL",
    origin: "http://127.0.0.1:11434",
    basePath: "/v1",
    wire: "openai-compatible",
    defaultModel: "llama3.2",
    tiers: { cheap: "llama3.2:1b", balanced: "llama3.2", premium: "llama3.1:70b" },
    thinking: false,
    keyless: true,
  },
  {
    name: "perplexity",
    credential: "PERPLEXITY_API_KEY",
    origin: "https://api.perplexity.ai",
    basePath: "",
    wire: "openai-compatible",
    defaultModel: "sonar",
    tiers: { cheap: "sonar", balanced: "sonar-pro", premium: "sonar-reasoning-pro" },
    thinking: false,
  },
];

/** Configured when it carries its own key, or its credential (for the keyless local runner, its origin) is set. */
export function isConfigured(entry: ProviderEntry, env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(entry.apiKey || env[entry.credential]?.trim());
}

export const CHAT_PROVIDER_NAMES = PROVIDERS.map((p) => p.name);
export const DEFAULT_PROVIDER = "xai";

export function providerEntry(name: string): ProviderEntry | undefined {
  return PROVIDERS.find((p) => p.name === name);
}

/** Tier defaults when the caller names no provider: the first configured of these, in this order. */
export const TIER_PREFERENCE: Record<Tier, string[]> = {
  cheap: ["groq", "xai", "gemini", "openai", "mistral", "anthropic", "perplexity", "cohere", "ollama"],
  balanced: ["xai", "anthropic", "openai", "gemini", "mistral", "groq", "perplexity", "cohere", "ollama"],
  premium: ["anthropic", "openai", "gemini", "xai", "mistral", "perplexity", "groq", "cohere", "ollama"],
};

/** Where the local runner is when the operator has not said: Ollama's own default. */
export const OLLAMA_DEFAULT_ORIGIN = "http://127.0.0.1:11434";
