import { z } from "@hono/zod-openapi";
import { defineArea } from "../../gateway/http/area.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonResponse } from "../../gateway/http/schemas.ts";
import { route } from "../../gateway/pipeline/route.ts";
import { isConfigured, PROVIDERS } from "../../upstream/llm-catalogue.ts";
import { openAIErrorResponses } from "../../llm/compat/error-responses.ts";
import { toOpenAIError } from "../../llm/compat/openai-errors.ts";

const models = gatewayRoute("key", {
  method: "get",
  path: "/v1/models",
  summary: "OpenAI-compatible model list of configured providers",
  tags: ["OpenAI-compatible"],
  responses: {
    200: jsonResponse(z.record(z.string(), z.unknown()), "An OpenAI model list"),
    ...openAIErrorResponses(),
  },
});

const modelsRoute = route(models, () => {
  const data = PROVIDERS.filter((p) => isConfigured(p)).flatMap((p) =>
    [...new Set([p.defaultModel, ...Object.values(p.tiers)])].map((m) => ({
      id: `${p.name}/${m}`,
      object: "model",
      created: 0,
      owned_by: p.name,
    })),
  );
  return { object: "list", data };
});

/**
 * The OpenAI-compatible model list (the OpenAI-compatible surface: see lib/api/chat), named
 * `provider/model`; errors in OpenAI's shape.
 */
export default defineArea({
  name: "models",
  scope: "llm",
  paths: ["/v1/models"],
  routes: [modelsRoute],
  respond: { errors: toOpenAIError },
});
