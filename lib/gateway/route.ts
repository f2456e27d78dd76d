import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { AuthMode } from "./auth.ts";
import { guard } from "./guard.ts";

const KEY_SECURITY = [{ apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }];

/**
 * A route of the gateway: its OpenAPI/zod contract plus who may call it (K/O/N) and the scope area
 * it belongs to. The auth mode becomes both the guard middleware and the OpenAPI `security`.
 */
export function gatewayRoute<R extends Omit<RouteConfig, "middleware" | "security">>(auth: AuthMode, area: string, config: R) {
  return createRoute({
    ...config,
    ...(auth === "none"
      ? { security: [] }
      : { middleware: [guard(auth, area)] as const, security: auth === "key" ? KEY_SECURITY : [...KEY_SECURITY, {}] }),
    "x-gateway-auth": auth,
    "x-gateway-area": area,
  } as unknown as R);
}
