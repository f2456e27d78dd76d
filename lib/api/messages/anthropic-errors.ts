import type { MiddlewareHandler } from "hono";
import type { ErrorBody } from "../../gateway/http/plain-route.ts";
import { gatewayErrorMessage, reshapeErrors } from "../chat/openai-errors.ts";

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
export function toAnthropicError(status: number, body: ErrorBody | null): Record<string, unknown> | null {
  const message = gatewayErrorMessage(body);
  if (message === undefined) return null;
  const type = TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return { type: "error", error: { type, message } };
}

/** On /v1/messages, errors in Anthropic's shape, so the Claude SDK's error classes and retries work. */
export const anthropicErrors = (): MiddlewareHandler => reshapeErrors(toAnthropicError);
