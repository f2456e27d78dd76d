import type { MiddlewareHandler } from "hono";

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

type GatewayErrorBody = { error?: string | { message?: unknown; code?: unknown } };

/**
 * An error of the gateway's (Form A `{error}` or Form B `{error: {code, message, retry_after}}`) in
 * OpenAI's shape, `{error: {message, type, param, code}}`; null when the body is not one of ours.
 * `param` is the field a validation message names first ("invalid request: messages.0.role: …").
 */
export function toOpenAIError(status: number, body: GatewayErrorBody): Record<string, unknown> | null {
  const e = body?.error;
  const message = typeof e === "string" ? e : typeof e?.message === "string" ? e.message : undefined;
  if (message === undefined) return null;
  const code = typeof e === "object" && typeof e.code === "string" ? e.code : null;
  const param = /^(?:invalid request: )?([A-Za-z_][\w.]*): /.exec(message)?.[1] ?? null;
  const type = TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return { error: { message, type, param, code } };
}

/**
 * On the OpenAI-compatible paths, every error answer in OpenAI's shape, with the same status and
 * headers (rate-limit headers, Retry-After) as the rest of the gateway; the rest of /v1 keeps the
 * spec's forms. Only error answers are read again, so successful calls pay nothing.
 */
export function openAIErrors(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.status < 400 || !res.headers.get("content-type")?.startsWith("application/json")) return;
    const shaped = toOpenAIError(
      res.status,
      (await res
        .clone()
        .json()
        .catch(() => null)) as GatewayErrorBody,
    );
    if (!shaped) return;
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    c.res = undefined;
    c.res = new Response(JSON.stringify(shaped), { status: res.status, headers });
  };
}
