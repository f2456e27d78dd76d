import { defineArea } from "../../gateway/http/area.ts";
import { toAnthropicError } from "../../llm/wire/anthropic/index.ts";
import { messagesRoutes } from "./routes.ts";

/**
 * Anthropic-compatible Messages on the same keys, limits and metering as /v1/llm (whose scope it is):
 * Claude-SDK programs point their base URL at the gateway and reach every provider — Anthropic's
 * models as a pass-through, the others by translation through Chat Completions. Errors are answered
 * in Anthropic's shape, so the Claude SDK's error classes and retries work.
 */
export default defineArea({
  name: "messages",
  scope: "llm",
  paths: ["/v1/messages"],
  routes: messagesRoutes,
  respond: { errors: toAnthropicError },
});
