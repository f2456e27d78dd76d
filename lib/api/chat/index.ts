import { defineArea } from "../../gateway/http/area.ts";
import { registerChatCompletions } from "./completions.ts";

/**
 * OpenAI-compatible Chat Completions on the same keys, limits and metering as /v1/llm (whose chat it
 * calls, and whose scope it is), so any OpenAI SDK can point its base URL at the gateway. With
 * /v1/embeddings and /v1/models it makes the OpenAI-compatible surface.
 */
export default defineArea({
  name: "chat",
  scope: "llm",
  paths: ["/v1/chat/*"],
  routes: [registerChatCompletions],
});
