import { isConfigured, PROVIDERS } from "./llm-catalogue.ts";

/** Providers usable now: those whose credential is set (for the keyless local runner, its origin). */
export function configuredProviders(env: NodeJS.ProcessEnv = process.env): string[] {
  return PROVIDERS.filter((p) => isConfigured(p, env)).map((p) => p.name);
}
