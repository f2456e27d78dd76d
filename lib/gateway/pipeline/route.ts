import type { RouteConfig, z } from "@hono/zod-openapi";
import type { JsonText } from "../http/json-text.ts";
import { routeAccess, type RouteAccess } from "../http/route.ts";
import type { Reply, StreamAnswer } from "./answer.ts";
import type { Call } from "./call.ts";

type Schema = z.ZodType;
type Request<R> = R extends { request: infer Q } ? Q : undefined;
type Output<S> = S extends Schema ? z.output<S> : undefined;
type Ok<R> = R extends { responses: { 200: { content: { "application/json": { schema: infer S } } } } }
  ? Output<S>
  : unknown;
type BodyOf<R> =
  Request<R> extends { body: { content: { "application/json": { schema: infer S } } } }
    ? Output<S>
    : Request<R> extends { body: { content: { "multipart/form-data": { schema: infer S } } } }
      ? Output<S>
      : undefined;

/** A route's input as its contract validated it: query, path parameters and body. */
export type Input<R> = {
  query: Output<Request<R> extends { query: infer S } ? S : undefined>;
  params: Output<Request<R> extends { params: infer S } ? S : undefined>;
  body: BodyOf<R>;
};

/** What a handler may answer: its 200 JSON value (or that value's text), a stream of events, or a Reply. */
export type HandlerAnswer<R> = Ok<R> | JsonText<Ok<R>> | JsonText | StreamAnswer | Reply;

/** A route's work as a plain function: the call and validated input in, the answer out. Errors are thrown. */
export type Handler<R> = (call: Call, input: Input<R>) => HandlerAnswer<R> | Promise<HandlerAnswer<R>>;

/** One route as the pipeline serves it: its contract (zod, OpenAPI), who may call it, and its handler. */
export type RouteDef = {
  readonly contract: RouteConfig;
  readonly access: RouteAccess;
  readonly handler: Handler<never>;
  /** Where it is declared ("lib/api/key/index.ts:36"), for docs/routes.md: read once, at start. */
  readonly source: string | undefined;
};

/** A route made of a contract built with gatewayRoute() and the handler that answers it. */
export function route<R extends RouteConfig>(contract: R, handler: Handler<R>): RouteDef {
  const access = routeAccess(contract);
  if (!access) throw new Error(`${contract.method.toUpperCase()} ${contract.path}: declare routes with gatewayRoute()`);
  return { contract, access, handler: handler as Handler<never>, source: callerOf(new Error().stack) };
}

/** The file and line of route()'s caller in a stack trace, relative to the working directory. */
export function callerOf(stack: string | undefined): string | undefined {
  const frame = stack?.split("\n")[2];
  const found = frame && /\(?(?:file:\/\/)?([^()\s]+):(\d+):\d+\)?$/.exec(frame.trim());
  if (!found) return undefined;
  const root = `${process.cwd()}/`;
  const file = found[1]!.startsWith(root) ? found[1]!.slice(root.length) : found[1]!;
  return `${file}:${found[2]}`;
}
