import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
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
import { requestIdOf } from "./request-id.ts";
import { methodsByPath } from "./allowed-methods.ts";
import { isJsonType, readDeclaredText } from "./node-body.ts";
import { setResponseHeader } from "./response-headers.ts";
import { observeRequest } from "../pipeline/pipeline.ts";

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

  const tooLarge = (c: Context) =>
    c.json({ error: `request body too large: the limit is ${rt.config.maxBodyBytes} bytes` }, 413);
  const limitBody = bodyLimit({ maxSize: rt.config.maxBodyBytes, onError: tooLarge });
  const allowedMethods = methodsByPath(app);
  // One middleware, not four (request id, observation, body cap, 405): each layer of Hono's compose is
  // a closure and a promise per request, on every route.
  app.use(async function frame(c, next) {
    const started = performance.now();
    const id = requestIdOf(c.req.header("x-request-id"));
    c.set("requestId", id);
    setResponseHeader(c, "X-Request-Id", id);
    c.set("runtime", rt);
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") await next();
    else {
      // Hono's bodyLimit asks for the body stream, which makes the Node adapter build a full WHATWG
      // Request and then read every body through it (36 ms for a 4 MB JSON body instead of 5). A declared
      // Content-Length is enough to decide (Node's parser never delivers more than it declares), so the
      // stream-counting limiter is kept for chunked bodies only.
      const declared = c.req.header("content-length");
      if (declared === undefined || c.req.header("transfer-encoding")) {
        // It answers an overflow by returning its response, as a middleware may (else what next returned).
        const refused: unknown = await limitBody(c, next);
        if (refused instanceof Response) c.res = refused;
      } else if (Number(declared) > rt.config.maxBodyBytes) c.res = tooLarge(c);
      else {
        // A JSON body is read off Node's request, for the validator and handlers (c.req.json) to find.
        const incoming = c.env?.incoming;
        if (incoming && isJsonType(c.req.header("content-type"))) {
          const text = readDeclaredText(incoming, Number(declared));
          // Read whether or not anything asks for it (an unauthenticated request's, say): never unhandled.
          text.catch(() => {});
          (c.req.bodyCache as { text?: Promise<string> }).text = text;
        }
        await next();
      }
    }
    // A known path asked with another method: 405 with Allow, as hono/method-not-allowed answers it.
    if (c.res.status === 404 && !c.error) {
      const methods = allowedMethods(c.req.path);
      if (methods.length > 0 && !methods.includes(method)) {
        // Hono carries the old response's headers over to the new one: its length and Allow must not.
        c.res.headers.delete("Allow");
        c.res.headers.delete("Content-Length");
        c.res = c.json({ error: `method ${method} not allowed here; use ${methods.join(", ")}` }, 405, {
          Allow: methods.join(", "),
        });
      }
    }
    observeRequest(rt, id, method, matchedRoute(c), c.res.status, performance.now() - started);
  });

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
  for (const routes of area.routes) if (typeof routes === "function") routes(areaApp, gateway);
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
