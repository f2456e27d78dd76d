import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { methodNotAllowed } from "hono/method-not-allowed";
import { routePath } from "hono/route";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { createAreaApp, type Area, type GatewayInfo } from "./area.ts";
import type { GatewayEnv } from "./context.ts";
import { withDatabaseOutage } from "./openapi-outage.ts";
import { withSchemaTypes } from "./openapi-types.ts";
import { errorResponse } from "../../errors.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { validationHook } from "./validation.ts";
import { MemoRouter } from "./memo-router.ts";
import { requestId } from "./request-id.ts";

export type GatewayApp = OpenAPIHono<GatewayEnv>;

/**
 * The whole HTTP API as one Hono app. Reads top to bottom as the pipeline in DESIGN.md:
 * request id → runtime + observation → body cap → 405 check → routes (each keyed route carries
 * auth → limits → validation → handler → metering) → one error shaper.
 */
export function createGatewayApp(rt: Runtime, areas: readonly Area[]): GatewayApp {
  const app = new OpenAPIHono<GatewayEnv>({
    strict: false,
    defaultHook: validationHook,
    // Hono's default router, its matches remembered (memo-router.ts).
    router: new MemoRouter(new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] })),
  });

  app.use(requestId());
  app.use(async function observe(c, next) {
    c.set("runtime", rt);
    const started = performance.now();
    await next();
    observeRequest(rt, c.get("requestId"), c.req.method, matchedRoute(c), c.res.status, performance.now() - started);
  });
  const tooLarge = (c: Context) =>
    c.json({ error: `request body too large: the limit is ${rt.config.maxBodyBytes} bytes` }, 413);
  const limitBody = bodyLimit({ maxSize: rt.config.maxBodyBytes, onError: tooLarge });
  // Hono's bodyLimit asks for the body stream, which makes the Node adapter build a full WHATWG
  // Request and then read every body through it (36 ms for a 4 MB JSON body instead of 5). A declared
  // Content-Length is enough to decide (Node's parser never delivers more than it declares), so the
  // stream-counting limiter is kept for chunked bodies only.
  app.use(async function capBody(c, next) {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const declared = c.req.header("content-length");
    if (declared === undefined || c.req.header("transfer-encoding")) return limitBody(c, next);
    return Number(declared) > rt.config.maxBodyBytes ? tooLarge(c) : next();
  });
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        c.json({ error: `method ${c.req.method} not allowed here; use ${methods.join(", ")}` }, 405, {
          Allow: methods.join(", "),
        }),
    }),
  );

  registerSecuritySchemes(app);
  for (const area of areas) {
    area.setup?.(rt);
    mountArea(app, area);
  }

  app.notFound((c) => c.json({ error: `no such endpoint: ${c.req.method} ${c.req.path}` }, 404));
  app.onError((err, c) =>
    errorResponse(err, c, (e) =>
      rt.logger.error({ err: e, requestId: c.get("requestId"), route: matchedRoute(c) }, "unhandled error"),
    ),
  );
  return app;
}

/** A request as every answer is counted and logged, whichever layer answered it (lib/direct-routes.ts too). */
export function observeRequest(
  rt: Runtime,
  requestId: string,
  method: string,
  route: string,
  status: number,
  ms: number,
): void {
  rt.metrics.requests.record(method, route, status, ms / 1000);
  if (status >= 500) rt.logger.warn({ requestId, method, route, status }, "request failed");
  // Checked first so that at the default level no log object is built for every request.
  else if (rt.logger.isLevelEnabled("debug")) rt.logger.debug({ requestId, method, route, status, ms }, "request");
}

// Labels by template, never by raw path, so metrics and logs carry no ids or keys.
function matchedRoute(c: Parameters<typeof routePath>[0]): string {
  const path = routePath(c, -1);
  return path === "/*" || path === "*" ? "unmatched" : path;
}

/** Adds an area's routes to the app, each behind the guard for the area's scope. */
export function mountArea(app: GatewayApp, area: Area): void {
  const gateway: GatewayInfo = {
    openApiDocument: (config) =>
      withSchemaTypes(withDatabaseOutage(app.getOpenAPI31Document({ openapi: "3.1.0", ...config }))),
    endpointCount: () => app.openAPIRegistry.definitions.filter((d) => d.type === "route").length,
  };
  const areaApp = createAreaApp(area);
  for (const routes of area.routes) routes(areaApp, gateway);
  app.route("/", areaApp);
}

function registerSecuritySchemes(app: GatewayApp): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKeyHeader", {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKeyQuery", {
    type: "apiKey",
    in: "query",
    name: "api_key",
  });
}
