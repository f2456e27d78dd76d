import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { authenticate, type AuthMode } from "./auth.ts";
import type { GatewayEnv } from "./context.ts";
import { RateLimitError } from "./errors.ts";
import { effectiveLimits } from "./key-record.ts";

/**
 * The keyed part of the pipeline for one route: auth → limits → (validation and handler) →
 * metering. Metering only appends to memory; rate-limit headers go on every keyed response.
 */
export function guard(mode: Exclude<AuthMode, "none">, area: string): MiddlewareHandler<GatewayEnv> {
  return async function gatewayGuard(c, next) {
    const rt = c.var.runtime;
    const key = await authenticate(c, rt.keys, mode, area);
    if (!key) return next();
    c.set("key", key);

    const started = performance.now();
    const route = routePath(c);
    const record = (status: number, bytesOut: number) => {
      const usage = c.var.usage;
      rt.meter.record({
        keyId: key.id,
        requestId: c.var.requestId,
        method: c.req.method,
        route,
        status,
        latencyMs: performance.now() - started,
        bytesIn: Number(c.req.header("content-length") ?? 0) || 0,
        bytesOut,
        ...usage,
        at: new Date(),
      });
    };

    let admission;
    try {
      admission = await rt.limiter.admit(key.id, effectiveLimits(key, rt.config.limits));
    } catch (err) {
      if (err instanceof RateLimitError) {
        rt.metrics.rateLimited.inc({ kind: err.window });
        record(429, 0);
      }
      throw err;
    }
    c.set("admission", admission);
    try {
      await next();
    } finally {
      admission.release();
    }
    for (const [name, value] of Object.entries(admission.headers)) c.res.headers.set(name, value);
    record(c.res.status, await measuredBody(c));
  };
}

// JSON bodies are small and complete: give them a Content-Length (and the meter its byte count).
// Streams are left alone; their size is only known when they end.
async function measuredBody(c: Parameters<MiddlewareHandler>[0]): Promise<number> {
  const declared = c.res.headers.get("content-length");
  if (declared) return Number(declared);
  if (!c.res.body || !c.res.headers.get("content-type")?.includes("application/json")) return 0;
  const bytes = await c.res.arrayBuffer();
  const headers = new Headers(c.res.headers);
  headers.set("content-length", String(bytes.byteLength));
  const status = c.res.status;
  // Cleared first so Hono does not copy the old headers onto the new response a second time.
  c.res = undefined;
  c.res = new Response(bytes, { status, headers });
  return bytes.byteLength;
}
