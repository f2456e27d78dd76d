import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { keylessLimit } from "./client-limit.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { GatewayEnv } from "./context.ts";
import { guard } from "./guard.ts";
import { routeAccess } from "./route.ts";
import { validationHook } from "./validation.ts";
import type { ErrorShape } from "../pipeline/error-shape.ts";
import type { RouteDef } from "../pipeline/route.ts";
import type { GatewayInfo } from "../pipeline/gateway-info.ts";

export type { GatewayInfo };

export type AreaApp = OpenAPIHono<GatewayEnv>;

/** One module's endpoints: it declares its routes beside their handlers and registers them here. */
export type RouteModule = (app: AreaApp, gateway: GatewayInfo) => void;

/**
 * One area of the API, as `lib/api/<name>/index.ts` exports it. The composition root mounts a list
 * of these; the area's scope reaches the guard of each of its routes and every usage event.
 */
export type Area = {
  /** Its folder under lib/api. */
  name: string;
  /** The key scope its keyed routes require, and the area usage is recorded under. */
  scope: string;
  /** The URL paths it answers: "/v1/llm/*" is a prefix (and the path itself), anything else exact. */
  paths: readonly string[];
  routes: readonly (RouteModule | RouteDef)[];
  /** How it answers on its paths: its surface's error shape, third-party content in every answer. */
  respond?: { errors?: ErrorShape; untrusted?: boolean };
  /**
   * Runs once per runtime, in web and worker processes alike: registers the work of the area's
   * durable task kinds, so whichever process takes a task from the queue can run it.
   */
  setup?: (rt: Runtime) => void;
};

export const defineArea = (area: Area): Area => area;

/**
 * The area as a Hono sub-app whose `openapi()` puts the guard (auth → scope → limits → metering)
 * and the keyless limit in front of each route. Mounted with `app.route("/", …)`, its routes are
 * copied into the parent's router once, so per request it costs nothing over registering directly.
 */
export function createAreaApp(area: Area): AreaApp {
  const app = new OpenAPIHono<GatewayEnv>({ strict: false, defaultHook: validationHook });
  const register = app.openapi;
  app.openapi = ((route: RouteConfig, ...rest: unknown[]) =>
    (register as (...args: unknown[]) => AreaApp)(withAreaGuard(route, area), ...rest)) as typeof app.openapi;
  return app;
}

function withAreaGuard(route: RouteConfig, area: Area): RouteConfig {
  const access = routeAccess(route);
  if (!access) throw new Error(`${route.method.toUpperCase()} ${route.path}: declare routes with gatewayRoute()`);
  const middleware: MiddlewareHandler<GatewayEnv>[] = [
    ...(access.auth === "none" ? [] : [guard(access.auth, area.scope, access.budgeted)]),
    ...(access.limitKeyless ? [keylessLimit()] : []),
    // The route's own (a raw-body form, say) runs behind the guard, so it is authenticated and metered.
    ...(route.middleware ? [route.middleware].flat() : []),
  ];
  return {
    ...route,
    ...(middleware.length ? { middleware } : {}),
    "x-gateway-area": area.scope,
  } as RouteConfig;
}
