/** Language-model providers and the variable that makes each usable (DESIGN.md "Upstreams"). */
export const LLM_PROVIDERS = [
  { name: "xai", credential: "XAI_API_KEY" },
  { name: "openai", credential: "OPENAI_API_KEY" },
  { name: "anthropic", credential: "ANTHROPIC_API_KEY" },
  { name: "gemini", credential: "GEMINI_API_KEY" },
  { name: "mistral", credential: "MISTRAL_API_KEY" },
  { name: "groq", credential: "GROQ_API_KEY" },
  { name: "perplexity", credential: "PERPLEXITY_API_KEY" },
  { name: "cohere", credential: "COHERE_API_KEY" },
  // The local runner needs no credential: it counts as configured once its origin is given.
  { name: "ollama", credential: "UPSTREAM_OLLAMA_URL" },
] as const;

/** Providers usable now: those whose credential (or, for ollama, origin) is set. */
export function configuredProviders(env: NodeJS.ProcessEnv = process.env): string[] {
  return LLM_PROVIDERS.filter((p) => Boolean(env[p.credential]?.trim())).map((p) => p.name);
}
