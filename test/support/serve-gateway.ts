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
  const served = await listen(http.createServer(app.node));
  return {
    url: served.url,
    request: (path, init) => fetch(served.url + path, init),
    close: () => served.close(),
  };
}
