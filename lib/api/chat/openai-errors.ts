import type { MiddlewareHandler } from "hono";
import { laneStep, type ErrorBody } from "../../gateway/http/plain-route.ts";

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

/** The message of an error of the gateway's (Form A `{error}` or Form B `{error: {code, message}}`), if it is one. */
export function gatewayErrorMessage(body: ErrorBody | null): string | undefined {
  const e = body?.error;
  return typeof e === "string" ? e : typeof e?.message === "string" ? e.message : undefined;
}

/**
 * An error of the gateway's in OpenAI's shape, `{error: {message, type, param, code}}`; null when the
 * body is not one of ours. `param` is the field a validation message names first ("invalid request:
 * messages.0.role: …").
 */
export function toOpenAIError(status: number, body: ErrorBody | null): Record<string, unknown> | null {
  const message = gatewayErrorMessage(body);
  if (message === undefined) return null;
  const e = body?.error;
  const code = typeof e === "object" && typeof e.code === "string" ? e.code : null;
  const param = /^(?:invalid request: )?([A-Za-z_][\w.]*): /.exec(message)?.[1] ?? null;
  const type = TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return { error: { message, type, param, code } };
}

/**
 * Every error answer on a compatible surface in that surface's own shape, with the same status and
 * headers (rate-limit headers, Retry-After) as the rest of the gateway; the rest of /v1 keeps the
 * spec's forms. Only error answers are read again, so successful calls pay nothing. The plain lane
 * reshapes the errors it answers with the same function.
 */
export function reshapeErrors(
  shape: (status: number, body: ErrorBody | null) => Record<string, unknown> | null,
): MiddlewareHandler {
  return laneStep(
    async function reshaped(c, next) {
      await next();
      const res = c.res;
      if (res.status < 400 || !res.headers.get("content-type")?.startsWith("application/json")) return;
      const shaped = shape(
        res.status,
        (await res
          .clone()
          .json()
          .catch(() => null)) as ErrorBody | null,
      );
      if (!shaped) return;
      const headers = new Headers(res.headers);
      headers.delete("content-length");
      c.res = undefined;
      c.res = new Response(JSON.stringify(shaped), { status: res.status, headers });
    } as MiddlewareHandler,
    { reshape: shape },
  );
}

/** On the OpenAI-compatible paths, errors in OpenAI's shape. */
export const openAIErrors = (): MiddlewareHandler => reshapeErrors(toOpenAIError);
