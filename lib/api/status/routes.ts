import { z, type OpenAPIHono, type RouteHandler } from "@hono/zod-openapi";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonResponse } from "../../gateway/http/schemas.ts";
import { API_VERSION } from "./openapi.ts";
import { rootDocument } from "./root.ts";

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

const root = gatewayRoute("none", {
  method: "get",
  path: "/",
  summary: "Service index (browsers asking for HTML get the portal instead)",
  tags: ["Status"],
  responses: rootResponses,
});

const apiRoot = gatewayRoute("none", {
  method: "get",
  path: "/v1",
  summary: "Service index under the versioned prefix",
  tags: ["Status"],
  responses: rootResponses,
});

const handleIndex: RouteHandler<typeof root, GatewayEnv> = (c) =>
  c.json(rootDocument(c.get("runtime").config, new URL(c.req.url).origin), 200);

export const HEALTH_PATH = "/health";

const health = gatewayRoute("none", {
  method: "get",
  path: HEALTH_PATH,
  summary: "Liveness",
  tags: ["Status"],
  responses: {
    200: jsonResponse(
      z.object({ status: z.literal("ok"), version: z.string() }).openapi("Health"),
      "The service is up",
    ),
  },
});

/** GET /health's answer; also given without the framework (lib/direct-routes.ts). */
export const HEALTH = { status: "ok" as const, version: API_VERSION };

const handleHealth: RouteHandler<typeof health, GatewayEnv> = (c) => c.json(HEALTH, 200);

export function registerStatusRoutes(app: OpenAPIHono<GatewayEnv>): void {
  app.openapi(root, handleIndex);
  app.openapi(apiRoot, handleIndex);
  app.openapi(health, handleHealth);
}
