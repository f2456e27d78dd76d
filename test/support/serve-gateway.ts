import http from "node:http";
import type { HttpGateway } from "../../lib/gateway/pipeline/gateway.ts";
import { listen } from "./listen.ts";

export type ServedGateway = {
  url: string;
  /** A request to the gateway over a loopback socket, through the Node adapter `npm start` serves. */
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
};

/** Serves a gateway's Node adapter on a free loopback port: the production path, driven over HTTP. */
export async function serveGateway(app: HttpGateway): Promise<ServedGateway> {
  // The client (fetch, undici) drops an idle connection after 4 s; the server waits longer, so it never
  // closes one the client is about to reuse, even when a test keeps this process busy for seconds.
  const server = http.createServer({ keepAliveTimeout: 30_000 }, app.node);
  const served = await listen(server);
  return {
    url: served.url,
    request: (path, init) => fetch(served.url + path, init),
    close: () => served.close(),
  };
}
