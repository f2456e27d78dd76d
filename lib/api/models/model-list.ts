import type { Routing } from "../../llm/routing/deployments.ts";
import { isConfigured, PROVIDERS } from "../../upstream/llm-catalogue.ts";

/** An entry of OpenAI's model list, as the gateway has always listed `provider/model`. */
export type ModelEntry = { id: string; object: "model"; created: 0; owned_by: string };

/** An alias in the list: callers name it as the model; `routing` says where it goes. */
export type AliasEntry = Omit<ModelEntry, "owned_by"> & {
  owned_by: "gateway";
  routing: { strategy: string; deployments: { name: string; provider: string; model: string }[] };
};

/**
 * The OpenAI-compatible model list: the operator's aliases, then each configured provider's default and
 * tier models as `provider/model`.
 */
export function modelList(
  routing: Routing,
  env: Record<string, string | undefined> = process.env,
): (AliasEntry | ModelEntry)[] {
  const aliases = [...routing.aliases.values()].map((alias): AliasEntry => ({
    id: alias.name,
    object: "model",
    created: 0,
    owned_by: "gateway",
    routing: {
      strategy: alias.strategy,
      deployments: alias.deployments.map(({ deployment: d }) => ({
        name: d.name,
        provider: d.provider,
        model: d.model,
      })),
    },
  }));
  const models = PROVIDERS.filter((p) => isConfigured(p, env)).flatMap((p) =>
    [...new Set([p.defaultModel, ...Object.values(p.tiers)])].map((m): ModelEntry => ({
      id: `${p.name}/${m}`,
      object: "model",
      created: 0,
      owned_by: p.name,
    })),
  );
  return [...aliases, ...models];
}
