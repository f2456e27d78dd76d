import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../../errors.ts";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { isConfigured, PROVIDERS, type ProviderEntry, type Tier } from "../../../upstream/llm-catalogue.ts";
import { runnerModels } from "../../../llm/runner-models.ts";
import { Budget } from "../../../llm/route-schemas.ts";

const models = gatewayRoute("key", {
  method: "get",
  path: "/v1/llm/models",
  summary: "Models the gateway picks by default and per tier, for configured providers",
  tags: ["LLM"],
  request: { query: z.object({ provider: z.string().optional() }) },
  responses: {
    200: jsonResponse(
      z.object({
        models: z.array(
          z.object({ id: z.string(), provider: z.string(), tiers: z.array(Budget), default: z.boolean() }),
        ),
      }),
      "Models",
    ),
    ...keyedErrors,
  },
});

type ModelEntry = { id: string; provider: string; tiers: Tier[]; default: boolean };

function entriesOf(p: ProviderEntry, ids: readonly string[], preferred: string): ModelEntry[] {
  return ids.map((id) => ({
    id,
    provider: p.name,
    tiers: (Object.keys(p.tiers) as Tier[]).filter((t) => p.tiers[t] === id),
    default: id === preferred,
  }));
}

/**
 * The runner's installed models, not the catalogue's: offering a model the runner does not have ends
 * in its 404. Its default is the catalogue's default when installed (by name, any tag), else the first.
 * An unreachable runner serves nothing, so it lists none.
 */
async function runnerEntries(p: ProviderEntry): Promise<ModelEntry[]> {
  const installed = await runnerModels();
  const base = (name: string) => name.replace(/:latest$/, "");
  const ids = installed.map((m) => base(m.name));
  const preferred = ids.find((id) => id === p.defaultModel) ?? ids[0] ?? "";
  return entriesOf(p, ids, preferred);
}

const handleModels: Handler<typeof models> = async (_c, { query: { provider } }) => {
  if (provider && !PROVIDERS.some((p) => p.name === provider))
    throw new GatewayError(400, `unknown provider '${provider}'`);
  const configured = PROVIDERS.filter((p) => isConfigured(p) && (!provider || p.name === provider));
  const lists = await Promise.all(
    configured.map((p) =>
      p.name === "ollama"
        ? runnerEntries(p)
        : entriesOf(p, [...new Set([p.defaultModel, ...Object.values(p.tiers)])], p.defaultModel),
    ),
  );
  return { models: lists.flat() };
};

/** The models of the provider catalogue, for configured providers. */
export const modelRoutes: RouteDef[] = [route(models, handleModels)];
