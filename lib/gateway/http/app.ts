import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import { routePath } from "hono/route";
import { registerAacRoutes } from "../../api/aac/routes.ts";
import { registerClinicalRoutes } from "../../api/clinical/routes.ts";
import { registerCorpusRoutes } from "../../api/corpus/routes.ts";
import { registerGeneratorRoutes } from "../../api/create/routes.ts";
import { registerDatavisRoutes } from "../../api/datavis/routes.ts";
import { registerEtymologyRoutes } from "../../api/etymology/routes.ts";
import { registerLinguisticsRoutes } from "../../api/linguistics/routes.ts";
import { registerTroveRoutes } from "../../api/trove/routes.ts";
import { registerAccountRoutes } from "../../api/account/routes.ts";
import { registerDataRoutes } from "../../api/data/routes.ts";
import { registerDataUtilityRoutes } from "../../api/data/utils-routes.ts";
import { registerDocumentRoutes } from "../../api/documents/routes.ts";
import { registerOpenAISurface } from "../../api/llm/openai-surface.ts";
import { registerOllamaRoutes } from "../../api/llm/ollama-routes.ts";
import { registerLlmRoutes } from "../../api/llm/routes.ts";
import { registerProxyRoutes } from "../../api/proxy/routes.ts";
import { registerScreenshotRoutes } from "../../api/screenshot/routes.ts";
import { registerSocialRoutes } from "../../api/social/routes.ts";
import { API_VERSION, registerStatusRoutes } from "../../api/status/routes.ts";
import { registerUtilsRoutes } from "../../api/utils/routes.ts";
import { registerSpeechRoutes } from "../../api/utils/speech/routes.ts";
import type { GatewayEnv } from "./context.ts";
import { errorResponse, GatewayError } from "../../errors.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { findUnsafeText } from "./safe-text.ts";
import { secretMatcher } from "../keys/secret-match.ts";
import { describeUnsafeText, describeValidationError } from "./validation.ts";

export type GatewayApp = OpenAPIHono<GatewayEnv>;

/**
 * The whole HTTP API as one Hono app. Reads top to bottom as the pipeline in DESIGN.md:
 * request id → runtime + observation → body cap → 405 check → routes (each keyed route carries
 * auth → limits → validation → handler → metering) → one error shaper.
 */
export function createApp(rt: Runtime): GatewayApp {
  const app = new OpenAPIHono<GatewayEnv>({
    strict: false,
    defaultHook: (result) => {
      if (!result.success) throw new GatewayError(400, describeValidationError(result.error));
      // Every route's input passes here, so this one rule keeps NULs and lone surrogates out of the
      // database, headers and upstream URLs. Keys and fields the schema dropped are never checked.
      const unsafe = findUnsafeText(result.data);
      if (unsafe)
        throw new GatewayError(400, describeUnsafeText(unsafe, result.target === "json" ? "body" : result.target));
    },
  });

  app.use(requestId({ headerName: "X-Request-Id" }));
  app.use(async function observe(c, next) {
    c.set("runtime", rt);
    const started = performance.now();
    await next();
    const route = matchedRoute(c);
    const seconds = (performance.now() - started) / 1000;
    rt.metrics.requests.inc({ method: c.req.method, route, status: c.res.status });
    rt.metrics.duration.observe({ method: c.req.method, route }, seconds);
    if (c.res.status >= 500)
      rt.logger.warn(
        { requestId: c.get("requestId"), method: c.req.method, route, status: c.res.status },
        "request failed",
      );
    // Checked first so that at the default level no log object is built for every request.
    else if (rt.logger.isLevelEnabled("debug")) {
      rt.logger.debug(
        { requestId: c.get("requestId"), method: c.req.method, route, status: c.res.status, ms: seconds * 1000 },
        "request",
      );
    }
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

  registerStatusRoutes(app);
  registerAccountRoutes(app);
  registerDataRoutes(app);
  registerDataUtilityRoutes(app);
  registerLlmRoutes(app);
  registerOpenAISurface(app);
  registerOllamaRoutes(app);
  registerUtilsRoutes(app);
  registerSpeechRoutes(app);
  registerDocumentRoutes(app);
  registerProxyRoutes(app);
  registerScreenshotRoutes(app);
  registerSocialRoutes(app);
  registerAacRoutes(app);
  registerClinicalRoutes(app);
  registerCorpusRoutes(app);
  registerGeneratorRoutes(app);
  registerDatavisRoutes(app);
  registerEtymologyRoutes(app);
  registerLinguisticsRoutes(app);
  registerTroveRoutes(app);
  registerOperationalRoutes(app, rt);

  app.notFound((c) => c.json({ error: `no such endpoint: ${c.req.method} ${c.req.path}` }, 404));
  app.onError((err, c) =>
    errorResponse(err, c, (e) =>
      rt.logger.error({ err: e, requestId: c.var.requestId, route: matchedRoute(c) }, "unhandled error"),
    ),
  );
  return app;
}

// Labels by template, never by raw path, so metrics and logs carry no ids or keys.
function matchedRoute(c: Parameters<typeof routePath>[0]): string {
  const path = routePath(c, -1);
  return path === "/*" || path === "*" ? "unmatched" : path;
}

function registerOperationalRoutes(app: GatewayApp, rt: Runtime): void {
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

  let document: string | undefined;
  app.get("/openapi.json", (c) => {
    document ??= JSON.stringify(
      app.getOpenAPI31Document({
        openapi: "3.1.0",
        info: {
          title: "Unified API Gateway",
          version: API_VERSION,
          description:
            "One API key for language models, research orchestration, data sources, reference data and utilities.",
        },
        servers: [{ url: rt.config.publicBaseUrl ?? "/" }],
      }),
    );
    return c.body(document, 200, { "Content-Type": "application/json; charset=utf-8" });
  });

  const metricsAuthorized = rt.config.metricsToken ? secretMatcher(`Bearer ${rt.config.metricsToken}`) : undefined;
  app.get("/metrics", async (c) => {
    if (metricsAuthorized && !metricsAuthorized(c.req.header("authorization"))) {
      throw new GatewayError(401, "metrics need 'Authorization: Bearer <METRICS_TOKEN>'");
    }
    return c.body(await rt.metrics.registry.metrics(), 200, { "Content-Type": rt.metrics.registry.contentType });
  });
}
