import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import type { GatewayEnv } from "./context.ts";
import { addressBucket, resolveClientAddress } from "./trusted-proxies.ts";

function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/**
 * The bucket a keyless client is counted in: the socket's peer, or the X-Forwarded-For hop a
 * TRUST_PROXY proxy names; IPv6 by its /64, since one host holds a whole /64. Requests that come
 * through app.request (tests, Next's route handlers) have no socket and share "unknown".
 */
export function clientAddress(c: Context<GatewayEnv>): string {
  const client = resolveClientAddress(
    socketAddress(c),
    c.req.header("x-forwarded-for"),
    c.get("runtime").config.proxy.trustedProxies,
  );
  return addressBucket(client);
}
