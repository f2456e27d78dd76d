import { z } from "@hono/zod-openapi";
import { mountArea, type GatewayApp } from "../../lib/gateway/http/app.ts";
import type { AreaApp } from "../../lib/gateway/http/area.ts";
import { gatewayRoute } from "../../lib/gateway/http/route.ts";
import { jsonRequest, jsonResponse } from "../../lib/gateway/http/schemas.ts";

/**
 * Routes that exist only in tests, to drive the pipeline where no product route does yet:
 * a validated JSON body, a slow handler (concurrency), a crash, optional-key routes (one limited per client without a key), another area.
 */
export function addProbeRoutes(app: GatewayApp): void {
  mountArea(app, { name: "probe-llm", scope: "llm", paths: [], routes: [echoRoute] });
  mountArea(app, { name: "probe-utils", scope: "utils", paths: [], routes: [slowAndFailingRoutes] });
  mountArea(app, { name: "probe-clinical", scope: "clinical", paths: [], routes: [optionalKeyRoutes] });
}

function echoRoute(app: AreaApp): void {
  const Echo = z.object({ name: z.string().min(1), count: z.number().int().min(1).max(10) });
  app.openapi(
    gatewayRoute("key", {
      method: "post",
      path: "/v1/probe/echo",
      request: jsonRequest(Echo),
      responses: { 200: jsonResponse(Echo, "echo") },
    }),
    (c) => c.json(c.req.valid("json"), 200),
  );
}

function slowAndFailingRoutes(app: AreaApp): void {
  app.openapi(
    gatewayRoute("key", {
      method: "get",
      path: "/v1/probe/slow",
      request: { query: z.object({ ms: z.coerce.number().int().min(0).max(5000).default(200) }) },
      responses: { 200: jsonResponse(z.object({ slept: z.number() }), "slept") },
    }),
    async (c) => {
      const { ms } = c.req.valid("query");
      await new Promise((r) => setTimeout(r, ms));
      return c.json({ slept: ms }, 200);
    },
  );
  app.openapi(
    gatewayRoute("key", {
      method: "get",
      path: "/v1/probe/boom",
      responses: { 200: jsonResponse(z.object({}), "never") },
    }),
    () => {
      throw new Error("database password is hunter2");
    },
  );
}

function optionalKeyRoutes(app: AreaApp): void {
  app.openapi(
    gatewayRoute("optional", {
      method: "get",
      path: "/v1/probe/optional",
      responses: { 200: jsonResponse(z.object({ keyed: z.boolean() }), "whether a key was used") },
    }),
    (c) => c.json({ keyed: Boolean(c.var.key) }, 200),
  );
  app.openapi(
    gatewayRoute(
      "optional",
      {
        method: "get",
        path: "/v1/probe/optional-work",
        responses: { 200: jsonResponse(z.object({ keyed: z.boolean() }), "whether a key was used") },
      },
      { limitKeyless: true },
    ),
    (c) => c.json({ keyed: Boolean(c.var.key) }, 200),
  );
}
