import { PROVIDERS } from "./llm-catalogue.ts";

/** Providers usable now: those whose credential is set, and the local runner once its origin is given. */
export function configuredProviders(env: NodeJS.ProcessEnv = process.env): string[] {
  const remote = PROVIDERS.filter((p) => Boolean(env[p.credential]?.trim())).map((p) => p.name);
  return env.UPSTREAM_OLLAMA_URL?.trim() ? [...remote, "ollama"] : remote;
}
