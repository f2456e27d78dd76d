import type { ServerResponse } from "node:http";
import type { Context } from "hono";
import type { GatewayEnv } from "./context.ts";

/** Node's own response, while a header can still go on it: under Node (server.ts), not in-process. */
export function nodeResponse(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as GatewayEnv["Bindings"])?.outgoing;
  return outgoing && !outgoing.headersSent ? outgoing : undefined;
}

/**
 * Sets a header every response to this request carries, whatever the handler returns. Under Node
 * (server.ts) it goes on Node's own response, merged in when the head is written: `c.header` would
 * make Hono build an undici `Headers` for the response, which @hono/node-server then walks back into
 * an object — a quarter of a keyless request's CPU for one request-id header (measured). In-process
 * (`app.request` in tests) there is no Node response, and Hono's headers serve.
 */
export function setResponseHeader(c: Context<GatewayEnv>, name: string, value: string): void {
  const outgoing = nodeResponse(c);
  if (outgoing) outgoing.setHeader(name, value);
  else c.header(name, value);
}

/** The rate-limit headers of an admission, on every response to the request (errors included). */
export function setResponseHeaders(c: Context<GatewayEnv>, headers: Record<string, string>): void {
  for (const name in headers) setResponseHeader(c, name, headers[name]!);
}
