import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { AuthMode } from "./auth.ts";
import { keylessLimit } from "./client-limit.ts";
import { guard } from "./guard.ts";

const KEY_SECURITY = [{ apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }];

/**
 * A route of the gateway: its OpenAPI/zod contract plus who may call it (K/O/N) and the scope area
 * it belongs to. The auth mode becomes both the guard middleware and the OpenAPI `security`.
 * With `{ limitKeyless: true }` (routes that do real work, not /health or an index), a request
 * without a key is limited per client address; one with a key on an optional-key route gets the key's limits.
 */
export function gatewayRoute<R extends Omit<RouteConfig, "middleware" | "security">>(
  auth: AuthMode,
  area: string,
  config: R,
  options: { limitKeyless?: boolean } = {},
) {
  const middleware = [
    ...(auth === "none" ? [] : [guard(auth, area)]),
    ...(options.limitKeyless ? [keylessLimit()] : []),
  ];
  return createRoute({
    ...config,
    ...(middleware.length ? { middleware } : {}),
    security: auth === "none" ? [] : auth === "key" ? KEY_SECURITY : [...KEY_SECURITY, {}],
    "x-gateway-auth": auth,
    "x-gateway-area": area,
  } as unknown as R);
}
