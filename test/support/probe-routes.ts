import { z } from "@hono/zod-openapi";
import type { HttpGateway } from "../../lib/gateway/pipeline/gateway.ts";
import { route } from "../../lib/gateway/pipeline/route.ts";
import { gatewayRoute } from "../../lib/gateway/http/route.ts";
import { jsonRequest, jsonResponse } from "../../lib/gateway/http/schemas.ts";

/**
 * Routes that exist only in tests, to drive the pipeline where no product route does yet:
 * a validated JSON body, a slow handler (concurrency), a crash, optional-key routes (one limited per client without a key), another area.
 */
export function addProbeRoutes(app: HttpGateway): void {
  app.mount({ name: "probe-llm", scope: "llm", paths: [], routes: [echoRoute] });
  app.mount({ name: "probe-utils", scope: "utils", paths: [], routes: slowAndFailingRoutes });
  app.mount({ name: "probe-clinical", scope: "clinical", paths: [], routes: optionalKeyRoutes });
}

const Echo = z.object({ name: z.string().min(1), count: z.number().int().min(1).max(10) });

const echoRoute = route(
  gatewayRoute("key", {
    method: "post",
    path: "/v1/probe/echo",
    request: jsonRequest(Echo),
    responses: { 200: jsonResponse(Echo, "echo") },
  }),
  (_c, { body }) => body,
);

const slowAndFailingRoutes = [
  route(
    gatewayRoute("key", {
      method: "get",
      path: "/v1/probe/slow",
      request: { query: z.object({ ms: z.coerce.number().int().min(0).max(5000).default(200) }) },
      responses: { 200: jsonResponse(z.object({ slept: z.number() }), "slept") },
    }),
    async (_c, { query: { ms } }) => {
      await new Promise((r) => setTimeout(r, ms));
      return { slept: ms };
    },
  ),
  route(
    gatewayRoute("key", {
      method: "get",
      path: "/v1/probe/boom",
      responses: { 200: jsonResponse(z.object({}), "never") },
    }),
    () => {
      throw new Error("database password is hunter2");
    },
  ),
];

const keyed = { 200: jsonResponse(z.object({ keyed: z.boolean() }), "whether a key was used") };

const optionalKeyRoutes = [
  route(gatewayRoute("optional", { method: "get", path: "/v1/probe/optional", responses: keyed }), (c) => ({
    keyed: Boolean(c.key),
  })),
  route(
    gatewayRoute(
      "optional",
      { method: "get", path: "/v1/probe/optional-work", responses: keyed },
      { limitKeyless: true },
    ),
    (c) => ({ keyed: Boolean(c.key) }),
  ),
];
