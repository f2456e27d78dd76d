import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { GatewayEnv } from "./context.ts";
import { setResponseHeader } from "./response-headers.ts";

const MAX_LENGTH = 255;
const UNSAFE = /[^\w\-=]/;

/** The caller's own id when it is at most 255 word characters, `-` or `=`; else a fresh UUID. */
export function requestIdOf(sent: string | undefined): string {
  return sent && sent.length <= MAX_LENGTH && !UNSAFE.test(sent) ? sent : randomUUID();
}

/**
 * X-Request-Id as hono/request-id gives it (the caller's own id when it is at most 255 word characters,
 * `-` or `=`, else a fresh UUID), set through setResponseHeader so it costs no `Headers` object.
 */
export function requestId(): MiddlewareHandler<GatewayEnv> {
  return function requestId(c, next) {
    const id = requestIdOf(c.req.header("x-request-id"));
    c.set("requestId", id);
    setResponseHeader(c, "X-Request-Id", id);
    return next();
  };
}
