import { getRequestListener } from "@hono/node-server";
import { directRoutes } from "./direct-routes.ts";
import type { GatewayApp } from "./gateway/http/app.ts";
import { plainLane, type NodeListener } from "./gateway/http/plain-lane.ts";
import type { Runtime } from "./gateway/runtime/runtime.ts";

/**
 * The API as Node serves it (server.ts, and the tests that drive it over a socket): /health, then the
 * plain keyed routes, answered on Node's request and response; everything else by the Hono app.
 */
export const apiListener = (rt: Runtime, app: GatewayApp): NodeListener =>
  directRoutes(rt, plainLane(rt, app, getRequestListener(app.fetch)));
