import { z, type RouteHandler } from "@hono/zod-openapi";
import { defineArea, type AreaApp } from "../../gateway/http/area.ts";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonResponse } from "../../gateway/http/schemas.ts";
import { isConfigured, PROVIDERS } from "../../upstream/llm-catalogue.ts";
import { openAIErrorResponses } from "../chat/compat-error-responses.ts";
import { openAIErrors } from "../chat/openai-errors.ts";

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

const handleModels: RouteHandler<typeof models, GatewayEnv> = (c) => {
  const data = PROVIDERS.filter((p) => isConfigured(p)).flatMap((p) =>
    [...new Set([p.defaultModel, ...Object.values(p.tiers)])].map((m) => ({
      id: `${p.name}/${m}`,
      object: "model",
      created: 0,
      owned_by: p.name,
    })),
  );
  return c.json({ object: "list", data }, 200);
};

function registerModels(app: AreaApp): void {
  // The OpenAI-compatible surface answers errors in OpenAI's shape.
  app.use("/v1/models", openAIErrors());
  app.openapi(models, handleModels);
}

/** The OpenAI-compatible model list (the OpenAI-compatible surface: see lib/api/chat), named `provider/model`. */
export default defineArea({
  name: "models",
  scope: "llm",
  paths: ["/v1/models"],
  routes: [registerModels],
});
