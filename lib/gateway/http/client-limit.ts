import type { Context, MiddlewareHandler, Next } from "hono";
import { clientAddress } from "./client-address.ts";
import type { GatewayEnv } from "./context.ts";
import { laneStep } from "./plain-route.ts";
import { setResponseHeaders } from "./response-headers.ts";
import { RateLimitError } from "../../errors.ts";
import type { Admission } from "../runtime/limits/limiter.ts";

export type ClientLimits = { minute: number; concurrency: number };

// Keyless clients have a minute window and a concurrency cap; a day window would only add a store write.
const NO_DAY_LIMIT = 1_000_000_000;

/**
 * Admits one keyless request against its client address's limits in `bucket`, through the same
 * limiter as keys (so shared across instances on Redis). A refusal is the usual 429 in Form B.
 */
export async function admitClient(c: Context<GatewayEnv>, bucket: string, limits: ClientLimits): Promise<Admission> {
  const rt = c.get("runtime");
  try {
    return await rt.limiter.admit(`${bucket}:${clientAddress(c)}`, {
      minute: limits.minute,
      day: NO_DAY_LIMIT,
      concurrency: limits.concurrency,
    });
  } catch (err) {
    if (err instanceof RateLimitError) rt.metrics.rateLimited.inc({ kind: err.window });
    throw err;
  }
}

/** Runs the rest of the request inside one client admission: its headers on the response, its slot held until the handler ends. */
export async function withClientLimit(
  c: Context<GatewayEnv>,
  next: Next,
  bucket: string,
  limits: ClientLimits,
): Promise<void> {
  const admission = await admitClient(c, bucket, limits);
  setResponseHeaders(c, admission.headers);
  try {
    await next();
  } finally {
    admission.release();
  }
}

/**
 * Limits a request per client address unless a key was accepted for it (then the guard has applied
 * the key's own limits): for keyless routes that do real work, and optional-key routes called without one.
 */
export function keylessLimit(): MiddlewareHandler<GatewayEnv> {
  // The plain lane answers only requests with a key, for which this does nothing.
  return laneStep<MiddlewareHandler<GatewayEnv>>(function keylessClientLimit(c, next) {
    if (c.get("key")) return next();
    return withClientLimit(c, next, "keyless-ip", c.get("runtime").config.keyless);
  }, {});
}
