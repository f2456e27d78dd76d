import type { RouteConfig, RouteHandler, z } from "@hono/zod-openapi";
import { CallStop } from "../../upstream/call-stop.ts";
import type { Context, MiddlewareHandler } from "hono";
import type { GatewayEnv, RequestVariables, UsageDetail } from "./context.ts";
import { eventStreamResponse, type EventSource } from "./event-stream.ts";
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

/** What the plain lane needs of a route registered through plainHandler or bodyHandler. */
export type PlainRoute = {
  method: "GET" | "POST";
  query?: Schema;
  params?: Schema;
  /** A POST route's JSON body. */
  body?: Schema;
  handler: (c: BodyCall, input: { query: unknown; params: unknown; body: unknown }) => unknown;
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
    method: "GET",
    query: request?.query,
    params: request?.params,
    handler: handler as PlainRoute["handler"],
  });
  return viaApp as unknown as RouteHandler<R, GatewayEnv>;
}

/** What a keyed JSON POST route's function has besides the request's variables: the call's own parts. */
export type BodyCall = RequestVariables & {
  /** Aborted when the client leaves before the answer is complete. */
  readonly signal: AbortSignal;
  /** What stops this call's provider work: `ms` passing, or the client leaving (see CallStop). */
  stop(ms: number): CallStop;
  header(name: string): string | undefined;
  /** The work done (provider, model, tokens), for metering. */
  report(usage: UsageDetail): void;
};

/**
 * A streamed answer: its events written to the client as they come (event-stream.ts), the request
 * metered with `metered`'s usage (tokens, bytes) and its concurrency slot held until it ends.
 */
export class StreamAnswer {
  constructor(
    readonly source: EventSource,
    readonly metered: Promise<UsageDetail>,
  ) {}
}

type JsonBody<R> =
  Request<R> extends { body: { content: { "application/json": { schema: infer S } } } } ? Output<S> : undefined;

/** A body route's validated input: its JSON body, and its query and path parameters if it declares them. */
export type BodyInput<R> = PlainInput<R> & { body: JsonBody<R> };

/**
 * A keyed JSON POST route's handler as a plain function: the call (see BodyCall) and validated input
 * in; a 200 answer (a value, a JsonText) or a StreamAnswer out. Errors are thrown.
 */
export type BodyHandler<R> = (
  c: BodyCall,
  input: BodyInput<R>,
) => PlainAnswer<R> | JsonText | StreamAnswer | Promise<PlainAnswer<R> | JsonText | StreamAnswer>;

/**
 * The BodyCall of a request the app answers: the same parts, read from Hono's context. A class for the
 * reason LaneCall (plain-lane.ts) is one: a getter in an object literal kept each request alive in old space.
 */
class AppCall implements BodyCall {
  constructor(private readonly c: Context<GatewayEnv>) {}

  get<K extends keyof GatewayEnv["Variables"]>(name: K): GatewayEnv["Variables"][K] {
    return this.c.get(name);
  }

  get signal(): AbortSignal {
    return this.c.req.raw.signal;
  }

  stop(ms: number): CallStop {
    return new CallStop(ms).follow(this.c.req.raw.signal);
  }

  header(name: string): string | undefined {
    return this.c.req.header(name);
  }

  report(usage: UsageDetail): void {
    this.c.set("usage", usage);
  }
}

/**
 * The Hono handler of a keyed POST route taking a JSON body (see BodyHandler), remembered so that
 * plain-lane.ts can answer it on Node's own request and response, as plainHandler does for GET routes.
 */
export function bodyHandler<R extends RouteConfig>(route: R, handler: BodyHandler<R>): RouteHandler<R, GatewayEnv> {
  const request = route.request as
    | { query?: Schema; params?: Schema; body?: { content?: Record<string, { schema?: Schema }> }; headers?: unknown }
    | undefined;
  const content = request?.body?.content ?? {};
  const body = content["application/json"]?.schema;
  if (route.method !== "post" || !body || Object.keys(content).length !== 1 || request?.headers || route.middleware)
    throw new Error(`${route.path}: a body route answers POST with a JSON body, its only input besides query and path`);
  const viaApp = async (c: Context<GatewayEnv>) => {
    const req = c.req as unknown as { valid(target: string): unknown };
    const input = {
      query: request?.query ? req.valid("query") : undefined,
      params: request?.params ? req.valid("param") : undefined,
      body: req.valid("json"),
    } as BodyInput<R>;
    const answer = await handler(new AppCall(c), input);
    if (!(answer instanceof StreamAnswer)) return c.json(answer as never, 200);
    c.set(
      "streamDone",
      answer.metered.then((usage) => c.set("usage", usage)),
    );
    return eventStreamResponse(c.env?.outgoing, answer.source);
  };
  plainRoutes.set(viaApp, {
    method: "POST",
    query: request?.query,
    params: request?.params,
    body,
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
  /** An error answer in another shape (a compatible surface's), or null to leave it as it is. */
  reshape?: (status: number, body: ErrorBody | null) => Record<string, unknown> | null;
};

/** An error answer's body as the gateway writes it: Form A `{error}` or Form B `{error: {code, message}}`. */
export type ErrorBody = { error?: string | { message?: unknown; code?: unknown } };

const laneSteps = new WeakMap<object, LaneStep>();

/** Declares what `middleware` does for requests the plain lane answers. */
export function laneStep<M extends MiddlewareHandler>(middleware: M, step: LaneStep): M {
  laneSteps.set(middleware, step);
  return middleware;
}

/** The lane's version of a middleware laneStep declared, else undefined. */
export const laneStepOf = (handler: unknown): LaneStep | undefined =>
  typeof handler === "function" ? laneSteps.get(handler) : undefined;
