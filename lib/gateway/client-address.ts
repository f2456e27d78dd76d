import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/**
 * The address a keyless client is counted by: the socket's peer (X-Forwarded-For is not trusted).
 * Requests that come through app.request (tests, Next's route handlers) have none and share "unknown".
 */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}
