import { z } from "@hono/zod-openapi";
import { defineArea } from "../../gateway/http/area.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonResponse } from "../../gateway/http/schemas.ts";
import { route } from "../../gateway/pipeline/route.ts";
import { openAIErrorResponses } from "../../llm/compat/error-responses.ts";
import { toOpenAIError } from "../../llm/wire/openai-chat.ts";
import { modelList } from "./model-list.ts";

const models = gatewayRoute("key", {
  method: "get",
  path: "/v1/models",
  summary: "OpenAI-compatible model list: the operator's aliases and configured providers' models",
  tags: ["OpenAI-compatible"],
  responses: {
    200: jsonResponse(z.record(z.string(), z.unknown()), "An OpenAI model list"),
    ...openAIErrorResponses(),
  },
});

const modelsRoute = route(models, (call) => ({
  object: "list",
  data: modelList(call.runtime.config.routing, process.env, call.key?.models),
}));

/**
 * The OpenAI-compatible model list (the OpenAI-compatible surface: see lib/api/chat): the operator's
 * aliases (lib/llm/routing) and `provider/model`; errors in OpenAI's shape.
 */
export default defineArea({
  name: "models",
  scope: "llm",
  paths: ["/v1/models"],
  routes: [modelsRoute],
  respond: { errors: toOpenAIError },
});
