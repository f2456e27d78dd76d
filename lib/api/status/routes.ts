import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonResponse } from "../../gateway/http/schemas.ts";
import { configuredProviders } from "../../upstream/providers.ts";
import { rootDocument } from "./root.ts";

export const API_VERSION = "1.0.0";

const RootSchema = z
  .object({
    name: z.string(),
    version: z.literal("v1"),
    documentation: z.string(),
    endpoints: z.record(z.string(), z.string()),
    authentication: z.object({ methods: z.array(z.string()), rate_limit: z.string() }),
  })
  .openapi("ServiceIndex");

const rootResponses = { 200: jsonResponse(RootSchema, "What the service is and where to start") };

const root = gatewayRoute("none", "status", {
  method: "get",
  path: "/",
  summary: "Service index (browsers asking for HTML get the portal instead)",
  tags: ["Status"],
  responses: rootResponses,
});

const apiRoot = gatewayRoute("none", "status", {
  method: "get",
  path: "/v1",
  summary: "Service index under the versioned prefix",
  tags: ["Status"],
  responses: rootResponses,
});

const health = gatewayRoute("none", "status", {
  method: "get",
  path: "/health",
  summary: "Liveness",
  tags: ["Status"],
  responses: {
    200: jsonResponse(
      z.object({ status: z.literal("ok"), version: z.string() }).openapi("Health"),
      "The service is up",
    ),
  },
});

const capabilities = gatewayRoute("none", "status", {
  method: "get",
  path: "/v1/capabilities",
  summary: "How many endpoints the gateway serves and which providers are usable now",
  tags: ["Status"],
  responses: {
    200: jsonResponse(
      z.object({ endpoints: z.number().int(), providers: z.array(z.string()) }).openapi("Capabilities"),
      "Endpoint count from the route table; providers with credentials configured",
    ),
  },
});

export function registerStatusRoutes(app: OpenAPIHono<GatewayEnv>): void {
  const index = (c: Parameters<Parameters<typeof app.openapi<typeof root>>[1]>[0]) =>
    c.json(rootDocument(c.var.runtime.config, new URL(c.req.url).origin), 200);
  app.openapi(root, index);
  app.openapi(apiRoot, index);
  app.openapi(health, (c) => c.json({ status: "ok" as const, version: API_VERSION }, 200));
  app.openapi(capabilities, (c) => c.json({ endpoints: countEndpoints(app), providers: configuredProviders() }, 200));
}

/** Endpoints are the distinct method + path pairs in the route table. */
export function countEndpoints(app: OpenAPIHono<GatewayEnv>): number {
  return app.openAPIRegistry.definitions.filter((d) => d.type === "route").length;
}
