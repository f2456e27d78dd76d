import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../../errors.ts";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { isConfigured, PROVIDERS } from "../../../upstream/llm-catalogue.ts";
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

const handleModels: Handler<typeof models> = (_c, { query: { provider } }) => {
  if (provider && !PROVIDERS.some((p) => p.name === provider))
    throw new GatewayError(400, `unknown provider '${provider}'`);
  const list = PROVIDERS.filter((p) => isConfigured(p) && (!provider || p.name === provider)).flatMap((p) => {
    const ids = [...new Set([p.defaultModel, ...Object.values(p.tiers)])];
    return ids.map((id) => ({
      id,
      provider: p.name,
      tiers: (Object.keys(p.tiers) as Array<keyof typeof p.tiers>).filter((t) => p.tiers[t] === id),
      default: id === p.defaultModel,
    }));
  });
  return { models: list };
};

/** The models of the provider catalogue, for configured providers. */
export const modelRoutes: RouteDef[] = [route(models, handleModels)];
