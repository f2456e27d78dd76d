import { defineArea } from "../../gateway/http/area.ts";
import { toOpenAIError } from "../../llm/wire/openai-chat.ts";
import { chatRoutes } from "./routes.ts";

/**
 * OpenAI-compatible Chat Completions on the same keys, limits and metering as /v1/llm (whose chat it
 * calls, and whose scope it is), so any OpenAI SDK can point its base URL at the gateway. With
 * /v1/embeddings and /v1/models it makes the OpenAI-compatible surface, which answers errors in
 * OpenAI's shape.
 */
export default defineArea({
  name: "chat",
  scope: "llm",
  paths: ["/v1/chat/*"],
  routes: chatRoutes,
  respond: { errors: toOpenAIError },
});
