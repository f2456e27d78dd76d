import type http from "node:http";
import net from "node:net";
import tls from "node:tls";
import { serve, type ServerType } from "@hono/node-server";

export type Listening<S extends net.Server = ServerType> = {
  server: S;
  port: number;
  url: string;
  close(): Promise<void>;
};

type FetchHandler = Parameters<typeof serve>[0]["fetch"];
type Where = { hostname?: string; port?: number };

/**
 * Serves a fetch handler (a fake upstream, or the gateway itself) on loopback, on a free port unless
 * one is given; or puts a server already made (an HTTPS site, an SMTP server's listener) there.
 * close() also ends kept-alive connections, so a suite never waits on an idle socket.
 */
export async function listen(fetch: FetchHandler, where?: Where): Promise<Listening>;
export async function listen<S extends net.Server>(server: S, where?: Where): Promise<Listening<S>>;
export async function listen(
  target: FetchHandler | net.Server,
  { hostname = "127.0.0.1", port = 0 }: Where = {},
): Promise<Listening<net.Server>> {
  const server: net.Server =
    target instanceof net.Server
      ? await new Promise((resolve) => target.listen(port, hostname, () => resolve(target)))
      : await new Promise((resolve) => {
          const s: ServerType = serve({ fetch: target, hostname, port }, () => resolve(s));
        });
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : 0;
  return {
    server,
    port: bound,
    url: `${server instanceof tls.Server ? "https" : "http"}://${hostname}:${bound}`,
    close: () =>
      new Promise((resolve) => {
        (server as Partial<http.Server>).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
