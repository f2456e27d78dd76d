import { z } from "@hono/zod-openapi";
import { gatewayErrorMessage, type ErrorShape } from "../../../gateway/pipeline/error-shape.ts";

/** Anthropic's error `type` for a status, as its SDK and clients branch on it. */
const TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  405: "invalid_request_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

/** An error of the gateway's in Anthropic's shape, `{type: "error", error: {type, message}}`; null when not one of ours. */
export const toAnthropicError: ErrorShape = (status, body) => {
  const message = gatewayErrorMessage(body);
  if (message === undefined) return null;
  const type = TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return { type: "error", error: { type, message } };
};

/** `{type: "error", error: {type, message}}`, as toAnthropicError shapes every error on /v1/messages, for the API document. */
export const AnthropicErrorSchema = z
  .object({ type: z.literal("error"), error: z.object({ type: z.string(), message: z.string() }) })
  .openapi("AnthropicError");

/** The `error` stream event telling a Messages client the provider failed part way. */
export const streamError = (message: string) => ({
  type: "error" as const,
  error: { type: "api_error" as const, message },
});
