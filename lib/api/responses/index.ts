import { defineArea } from "../../gateway/http/area.ts";
import { toOpenAIError } from "../../llm/wire/openai-chat.ts";
import { responsesRoutes } from "./routes.ts";

/**
 * OpenAI's Responses API (the OpenAI SDK's newer default) on every provider, by translation through
 * Chat Completions, on the LLM scope's keys, limits and metering; answers are stored per key for
 * `previous_response_id` (RESPONSES_RETENTION_DAYS). Errors are answered in OpenAI's shape.
 */
export default defineArea({
  name: "responses",
  scope: "llm",
  paths: ["/v1/responses/*"],
  routes: responsesRoutes,
  respond: { errors: toOpenAIError },
});
