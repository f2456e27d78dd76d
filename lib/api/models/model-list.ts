import type { Routing } from "../../llm/routing/deployments.ts";
import { applyModelRules, type RuledCandidate } from "../../llm/routing/model-rules.ts";
import type { ModelRules } from "../../gateway/keys/record.ts";
import { isConfigured, PROVIDERS } from "../../upstream/llm-catalogue.ts";

/** An entry of OpenAI's model list, as the gateway has always listed `provider/model`. */
export type ModelEntry = { id: string; object: "model"; created: 0; owned_by: string };

/** An alias in the list: callers name it as the model; `routing` says where it goes. */
export type AliasEntry = Omit<ModelEntry, "owned_by"> & {
  owned_by: "gateway";
  routing: { strategy: string; deployments: { name: string; provider: string; model: string }[] };
};

/** Whether a key with these model rules may call `model` on at least one of its deployments. */
function callable(model: string, candidates: RuledCandidate[], rules: ModelRules | undefined): boolean {
  if (!rules) return true;
  try {
    return applyModelRules(model, candidates, rules).length > 0;
  } catch {
    return false;
  }
}

/**
 * The OpenAI-compatible model list: the operator's aliases, then each configured provider's default and
 * tier models as `provider/model`; with a key's model rules, only what that key may call.
 */
export function modelList(
  routing: Routing,
  env: Record<string, string | undefined> = process.env,
  rules?: ModelRules,
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
  const aliasDeployments = (a: AliasEntry) =>
    a.routing.deployments.map((d) => ({ entry: { name: d.provider }, modelId: d.model }));
  return [
    ...aliases.filter((a) => callable(a.id, aliasDeployments(a), rules)),
    ...models.filter((m) =>
      callable(m.id, [{ entry: { name: m.owned_by }, modelId: m.id.slice(m.owned_by.length + 1) }], rules),
    ),
  ];
}
