import fs from "node:fs";
import type { GuardrailPolicy } from "../../guardrails/policy.ts";
import path from "node:path";
import { isConfigured, PROVIDERS, providerEntry } from "../../upstream/llm-catalogue.ts";
import {
  EMPTY_ROUTING,
  parseRoutingConfig,
  providerPrefix,
  type AliasConfig,
  type DeploymentConfig,
  type RoutingConfig,
} from "./config.ts";

/**
 * What the gateway can route to: the file's deployments and aliases, plus the implicit deployments that
 * keep today's environment working with no file at all: one per configured provider (named by the
 * provider, its default model, its usual variable) and one for any `provider/model` an alias lists.
 */
export type Deployment = DeploymentConfig & {
  /** The environment variable holding the key (the provider's own unless the file names one). */
  credential: string;
  /** Made from the environment, not declared in the file. */
  implicit: boolean;
};

export type RoutedTarget = { deployment: Deployment; weight: number };

export type Alias = Omit<AliasConfig, "deployments"> & { deployments: RoutedTarget[] };

export type Routing = {
  /** The file read, if any. */
  file?: string;
  deployments: ReadonlyMap<string, Deployment>;
  aliases: ReadonlyMap<string, Alias>;
  /** The guardrail policies keys and aliases name (lib/guardrails/policy.ts). */
  guardrails: ReadonlyMap<string, GuardrailPolicy>;
};

/** The file GATEWAY_CONFIG names, else the first of ./gateway.config.{json,yaml,yml} there is. */
const DEFAULT_FILES = ["gateway.config.json", "gateway.config.yaml", "gateway.config.yml"];

/**
 * Reads and checks the operator's routing file. No file at the default places is no aliases; a file
 * GATEWAY_CONFIG names that is not there, or any problem in a file, stops start-up (RoutingConfigError
 * names the line).
 */
export function loadRouting(env: Record<string, string | undefined>, cwd: string): Routing {
  const file = routingFile(env, cwd);
  if (!file) return buildRouting(EMPTY_ROUTING, env);
  const text = fs.readFileSync(path.resolve(cwd, file), "utf8");
  return buildRouting(parseRoutingConfig(text, file, env), env);
}

/** The routing file to read, as the operator would name it (relative to `cwd` unless absolute). */
export function routingFile(env: Record<string, string | undefined>, cwd: string): string | undefined {
  const named = env.GATEWAY_CONFIG?.trim();
  if (named) {
    if (!fs.existsSync(path.resolve(cwd, named)))
      throw new Error(`GATEWAY_CONFIG names ${named}, which does not exist`);
    return named;
  }
  return DEFAULT_FILES.find((f) => fs.existsSync(path.resolve(cwd, f)));
}

/** The effective deployments and the aliases over them, from a checked config and the environment. */
export function buildRouting(config: RoutingConfig, env: Record<string, string | undefined>): Routing {
  const deployments = new Map<string, Deployment>();
  for (const d of config.deployments) {
    deployments.set(d.name, {
      ...d,
      credential: d.credential ?? providerEntry(d.provider)!.credential,
      implicit: false,
    });
  }
  for (const entry of PROVIDERS) {
    if (isConfigured(entry, env) && !deployments.has(entry.name))
      deployments.set(entry.name, implicitDeployment(entry.name, entry.defaultModel, entry.name));
  }
  const aliases = new Map<string, Alias>();
  for (const alias of config.aliases) {
    const targets = alias.deployments.map((t): RoutedTarget => {
      let deployment = deployments.get(t.deployment);
      if (!deployment) {
        const provider = providerPrefix(t.deployment) ?? t.deployment;
        const entry = providerEntry(provider)!;
        const model = provider === t.deployment ? entry.defaultModel : t.deployment.slice(provider.length + 1);
        deployment = implicitDeployment(provider, model, t.deployment);
        deployments.set(t.deployment, deployment);
      }
      return { deployment, weight: t.weight ?? deployment.weight };
    });
    aliases.set(alias.name, { ...alias, deployments: targets });
  }
  return {
    ...(config.file !== undefined && { file: config.file }),
    deployments,
    aliases,
    guardrails: config.guardrails,
  };
}

/**
 * A provider's model on the provider's own credential and origin, as a `provider/model` name has always
 * been served. Its origin is left to the provider's (UPSTREAM_<NAME>_URL, read per call as today).
 */
export function implicitDeployment(provider: string, model: string, name = `${provider}/${model}`): Deployment {
  const entry = providerEntry(provider);
  if (!entry) throw new Error(`unknown provider "${provider}"`);
  return { name, provider, model, credential: entry.credential, weight: 1, implicit: true };
}

/**
 * Where a caller's model goes: an alias's deployments, or the implicit deployment of a `provider/model`
 * with a known provider. Anything else (a bare model id) is undefined: the caller resolves it as today.
 */
export function resolveModel(routing: Routing, model: string): { alias?: Alias; targets: RoutedTarget[] } | undefined {
  const alias = routing.aliases.get(model);
  if (alias) return { alias, targets: alias.deployments };
  const provider = providerPrefix(model);
  if (!provider || model.length === provider.length + 1) return undefined;
  const deployment = implicitDeployment(provider, model.slice(provider.length + 1));
  return { targets: [{ deployment, weight: 1 }] };
}

/** The prices the file's deployments set, by provider and model, for the price table (prices.ts). */
export function routingPrices(
  routing: Routing,
): { provider: string; model: string; price: readonly [number, number] }[] {
  const prices = [];
  for (const d of routing.deployments.values())
    if (d.price) prices.push({ provider: d.provider, model: d.model, price: d.price });
  return prices;
}
