import { gatewayErrorMessage, type ErrorShape } from "../../gateway/pipeline/error-shape.ts";

/** OpenAI's error `type` for a status, as its SDKs and clients branch on it. */
const TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  405: "invalid_request_error",
  413: "invalid_request_error",
  429: "rate_limit_error",
};

/**
 * An error of the gateway's in OpenAI's shape, `{error: {message, type, param, code}}`; null when the
 * body is not one of ours. `param` is the field a validation message names first ("invalid request:
 * messages.0.role: …"). The OpenAI-compatible areas answer every error in it, with the same status
 * and headers (rate-limit headers, Retry-After) as the rest of the gateway.
 */
export const toOpenAIError: ErrorShape = (status, body) => {
  const message = gatewayErrorMessage(body);
  if (message === undefined) return null;
  const e = body?.error;
  const code = typeof e === "object" && typeof e.code === "string" ? e.code : null;
  const param = /^(?:invalid request: )?([A-Za-z_][\w.]*): /.exec(message)?.[1] ?? null;
  const type = TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return { error: { message, type, param, code } };
};
