import type http from "node:http";
import { serve, type ServerType } from "@hono/node-server";

export type Listening = { server: ServerType; port: number; url: string; close(): Promise<void> };

/**
 * Serves a fetch handler (a fake upstream, or the gateway itself) on loopback, on a free port unless
 * one is given. close() also ends kept-alive connections, so a suite never waits on an idle socket.
 */
export async function listen(
  fetch: Parameters<typeof serve>[0]["fetch"],
  { hostname = "127.0.0.1", port = 0 }: { hostname?: string; port?: number } = {},
): Promise<Listening> {
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch, hostname, port }, () => resolve(s));
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : 0;
  return {
    server,
    port: bound,
    url: `http://${hostname}:${bound}`,
    close: () =>
      new Promise((resolve) => {
        (server as http.Server).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
