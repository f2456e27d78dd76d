import { RateLimitError } from "../../errors.ts";
import type { Admission } from "../runtime/limits/limiter.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { addressBucket, resolveClientAddress } from "../http/trusted-proxies.ts";

export type ClientLimits = { minute: number; concurrency: number };

// Keyless clients have a minute window and a concurrency cap; a day window would only add a store write.
const NO_DAY_LIMIT = 1_000_000_000;

/** The address a request's limits are counted by: the client behind trusted proxies, bucketed (an IPv6 /64). */
export function clientAddressOf(
  rt: Pick<Runtime, "config">,
  remoteAddress: string | undefined,
  forwardedFor: string | undefined,
): string {
  return addressBucket(resolveClientAddress(remoteAddress, forwardedFor, rt.config.proxy.trustedProxies));
}

/**
 * Admits one keyless request against its client address's limits in `bucket`, through the same
 * limiter as keys (so shared across instances on Redis). A refusal is the usual 429 in Form B.
 */
export async function admitClient(
  rt: Pick<Runtime, "limiter" | "metrics">,
  address: string,
  bucket: string,
  limits: ClientLimits,
): Promise<Admission> {
  try {
    return await rt.limiter.admit(`${bucket}:${address}`, {
      minute: limits.minute,
      day: NO_DAY_LIMIT,
      concurrency: limits.concurrency,
    });
  } catch (err) {
    if (err instanceof RateLimitError) rt.metrics.rateLimited.inc({ kind: err.window });
    throw err;
  }
}
