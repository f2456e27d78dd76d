import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { secretMatcher } from "../../gateway/keys/secret-match.ts";
import { Reply } from "../../gateway/pipeline/answer.ts";
import type { Call } from "../../gateway/pipeline/call.ts";
import type { GatewayInfo } from "../../gateway/pipeline/gateway-info.ts";
import { route, type RouteDef } from "../../gateway/pipeline/route.ts";
import { jsonResponse } from "../../gateway/http/schemas.ts";
import { API_DESCRIPTION, API_VERSION } from "./openapi.ts";
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

const handleIndex = (c: Call) => rootDocument(c.runtime.config, new URL(c.request.url).origin);

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

/** GET /health's answer, a constant: its text is made once. */
const HEALTH = Reply.json({ status: "ok" as const, version: API_VERSION });

const openApiDocument = gatewayRoute("none", {
  method: "get",
  path: "/openapi.json",
  hide: true,
  responses: {},
});

/** GET /openapi.json: the document of every mounted route, built on a gateway's first request and kept as text. */
function serveOpenApiDocument(): (c: Call) => Reply {
  const documents = new WeakMap<GatewayInfo, Reply>();
  return (c) => {
    let document = documents.get(c.gateway);
    if (!document) {
      const text = JSON.stringify(
        c.gateway.openApiDocument({ info: API_DESCRIPTION, servers: [{ url: c.runtime.config.publicBaseUrl ?? "/" }] }),
      );
      document = new Reply(200, text, { "Content-Type": "application/json; charset=utf-8" });
      documents.set(c.gateway, document);
    }
    return document;
  };
}

const metrics = gatewayRoute("none", { method: "get", path: "/metrics", hide: true, responses: {} });

/** GET /metrics: Prometheus text; with METRICS_TOKEN set, only for `Authorization: Bearer <token>`. */
function serveMetrics(): (c: Call) => Promise<Reply> {
  // Per runtime: one process may hold several (tests), each with its own token.
  const matchers = new WeakMap<object, ((header: string | undefined) => boolean) | null>();
  return async (c) => {
    const rt = c.runtime;
    let authorized = matchers.get(rt);
    if (authorized === undefined) {
      authorized = rt.config.metricsToken ? secretMatcher(`Bearer ${rt.config.metricsToken}`) : null;
      matchers.set(rt, authorized);
    }
    if (authorized && !authorized(c.header("authorization"))) {
      throw new GatewayError(401, "metrics need 'Authorization: Bearer <METRICS_TOKEN>'");
    }
    return new Reply(200, await rt.metrics.registry.metrics(), { "Content-Type": rt.metrics.registry.contentType });
  };
}

export const statusRoutes: RouteDef[] = [
  route(root, handleIndex),
  route(apiRoot, handleIndex),
  route(health, () => HEALTH),
  route(openApiDocument, serveOpenApiDocument()),
  route(metrics, serveMetrics()),
];
