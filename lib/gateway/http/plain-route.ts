import type { RouteConfig, RouteHandler, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { GatewayEnv, RequestVariables } from "./context.ts";
import type { JsonText } from "./json-text.ts";

type Schema = z.ZodType;
type Request<R> = R extends { request: infer Q } ? Q : undefined;
type Output<S> = S extends Schema ? z.output<S> : undefined;
type Answer<R> = R extends { responses: { 200: { content: { "application/json": { schema: infer S } } } } }
  ? Output<S>
  : never;

/** A plain route's validated input: its query and path parameters, as its contract parses them. */
export type PlainInput<R> = {
  query: Output<Request<R> extends { query: infer S } ? S : undefined>;
  params: Output<Request<R> extends { params: infer S } ? S : undefined>;
};

/**
 * A keyed GET route's handler as a plain function: the request's variables and validated input in, its
 * 200 answer out (a value, or a JsonText already in the answer's shape). Errors are thrown.
 */
export type PlainHandler<R> = (c: RequestVariables, input: PlainInput<R>) => PlainAnswer<R> | Promise<PlainAnswer<R>>;
type PlainAnswer<R> = Answer<R> | JsonText<Answer<R>>;

/** What the plain lane needs of a route registered through plainHandler. */
export type PlainRoute = {
  query?: Schema;
  params?: Schema;
  handler: (c: RequestVariables, input: { query: unknown; params: unknown }) => unknown;
};

const plainRoutes = new WeakMap<object, PlainRoute>();

/**
 * The Hono handler of a keyed GET route whose work is a plain function of its input (see PlainHandler),
 * remembered so that plain-lane.ts can answer the route on Node's own request and response, without
 * Hono, for a request that presents a key. Everything else about the route (its contract, the OpenAPI
 * document, requests the lane passes on) stays with the app, which calls the same function.
 */
export function plainHandler<R extends RouteConfig>(route: R, handler: PlainHandler<R>): RouteHandler<R, GatewayEnv> {
  if (route.method !== "get") throw new Error(`${route.path}: a plain route answers GET only`);
  const request = route.request as { query?: Schema; params?: Schema; body?: unknown; headers?: unknown } | undefined;
  if (request?.body || request?.headers || route.middleware)
    throw new Error(`${route.path}: a plain route takes its input from the query and path only`);
  const viaApp = async (c: Parameters<RouteHandler<R, GatewayEnv>>[0]) => {
    const req = c.req as unknown as { valid(target: string): unknown };
    const input = {
      query: request?.query ? req.valid("query") : undefined,
      params: request?.params ? req.valid("param") : undefined,
    } as PlainInput<R>;
    return c.json(await handler(c, input), 200);
  };
  plainRoutes.set(viaApp, {
    query: request?.query,
    params: request?.params,
    handler: handler as PlainRoute["handler"],
  });
  return viaApp as unknown as RouteHandler<R, GatewayEnv>;
}

/** The plain route behind a handler plainHandler made, else undefined. */
export const plainRouteOf = (handler: unknown): PlainRoute | undefined =>
  typeof handler === "function" ? plainRoutes.get(handler) : undefined;

/**
 * What a middleware does that the plain lane can do for it: a check of the request's headers (which throws
 * to refuse it) and headers every answer carries. A middleware without this makes its paths the app's.
 */
export type LaneStep = {
  check?: (header: (name: string) => string | undefined) => void;
  headers?: Record<string, string>;
};

const laneSteps = new WeakMap<object, LaneStep>();

/** Declares what `middleware` does for requests the plain lane answers. */
export function laneStep<M extends MiddlewareHandler>(middleware: M, step: LaneStep): M {
  laneSteps.set(middleware, step);
  return middleware;
}

/** The lane's version of a middleware laneStep declared, else undefined. */
export const laneStepOf = (handler: unknown): LaneStep | undefined =>
  typeof handler === "function" ? laneSteps.get(handler) : undefined;
