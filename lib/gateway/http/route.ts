import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { AuthMode } from "./auth.ts";
import type { ErrorShape } from "../pipeline/error-shape.ts";

const KEY_SECURITY = [{ apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }];

/**
 * What a route declares about who may call it; the area it is mounted in adds the scope. `budgeted`:
 * whether a used-up hard-stop budget refuses it (not for reads of the key's own stored work).
 */
export type RouteAccess = {
  auth: AuthMode;
  limitKeyless: boolean;
  budgeted: boolean;
  /** Whether its answers carry third-party bytes: the untrusted-content headers, no service-worker fetch. */
  untrusted: boolean;
  /** Its surface's error shape (OpenAI's, Anthropic's), when not the gateway's own. */
  errors?: ErrorShape;
};

const ACCESS = Symbol("gateway route access");

/**
 * A route of the gateway: its OpenAPI/zod contract plus who may call it (K/O/N). The auth mode
 * becomes the OpenAPI `security` here and the guard middleware when its area mounts it (see area.ts),
 * so a route never names its area. With `{ limitKeyless: true }` (routes that do real work, not
 * /health or an index), a request without a key is limited per client address; one with a key on an
 * optional-key route gets the key's limits. With `{ readsOwnWork: true }` (a task's status or
 * results: they cost nothing), a key whose hard-stop budget is used up may still call it, so the owner
 * can collect what a stopped task finished. `untrusted`: its answers carry third-party bytes (see
 * untrusted-response.ts); `errors`: its surface's error shape. A route's own `middleware` runs after those (so it is
 * authenticated, limited and metered) and before the request is validated against the contract.
 */
export function gatewayRoute<R extends Omit<RouteConfig, "security">>(
  auth: AuthMode,
  config: R,
  options: { limitKeyless?: boolean; readsOwnWork?: boolean; untrusted?: boolean; errors?: ErrorShape } = {},
) {
  const route = createRoute({
    ...config,
    security: auth === "none" ? [] : auth === "key" ? KEY_SECURITY : [...KEY_SECURITY, {}],
    "x-gateway-auth": auth,
  } as unknown as R);
  const access: RouteAccess = {
    auth,
    limitKeyless: options.limitKeyless ?? false,
    budgeted: !(options.readsOwnWork ?? false),
    untrusted: options.untrusted ?? false,
    ...(options.errors ? { errors: options.errors } : {}),
  };
  Object.defineProperty(route, ACCESS, { value: access });
  return route;
}

/** The access a route was declared with; undefined for a route not built by gatewayRoute. */
export function routeAccess(route: object): RouteAccess | undefined {
  return (route as { [ACCESS]?: RouteAccess })[ACCESS];
}
