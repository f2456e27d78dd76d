import { defineArea } from "../../gateway/http/area.ts";
import { registerResponses } from "./route.ts";

/**
 * OpenAI's Responses API (the OpenAI SDK's newer default) on every provider, by translation through
 * Chat Completions, on the LLM scope's keys, limits and metering; answers are stored per key for
 * `previous_response_id` (RESPONSES_RETENTION_DAYS).
 */
export default defineArea({
  name: "responses",
  scope: "llm",
  paths: ["/v1/responses/*"],
  routes: [registerResponses],
});
