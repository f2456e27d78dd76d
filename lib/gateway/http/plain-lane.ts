import type { IncomingMessage, ServerResponse } from "node:http";
import { CallStop } from "../../upstream/call-stop.ts";
import type { Result } from "hono/router";
import type { RouterRoute } from "hono/types";
import { HTTPException } from "hono/http-exception";
import { errorAnswer } from "../../errors.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { Admission } from "../runtime/limits/limiter.ts";
import { observeRequest, type GatewayApp } from "./app.ts";
import { acceptKey, presentedKey, resolvePresented, type RequestHeads } from "./auth.ts";
import type { GatewayEnv, UsageDetail } from "./context.ts";
import { eventStreamResponse } from "./event-stream.ts";
import { accessOfGuard, admitKey, usageRecorder } from "./guard.ts";
import { JsonText } from "./json-text.ts";
import { readDeclaredText } from "./node-body.ts";
import {
  laneStepOf,
  plainRouteOf,
  StreamAnswer,
  type BodyCall,
  type ErrorBody,
  type LaneStep,
  type PlainRoute,
} from "./plain-route.ts";
import { requestIdOf } from "./request-id.ts";
import { acceptInput } from "./validation.ts";

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** How the app would answer a GET or POST of one path, when a plain route answers it. */
type Plan = {
  plain: PlainRoute;
  params: Record<string, string> | undefined;
  /** The route's template, as the guard meters it. */
  route: string;
  /** The label the app's metrics and log give the request (the last route it matched). */
  observed: string;
  area: string;
  /** Whether a used-up hard-stop budget refuses it (as the route's guard decides). */
  budgeted: boolean;
  steps: LaneStep[];
};

type Entry = [[unknown, RouterRoute], unknown];

/**
 * Only paths whose every segment is word characters and hyphens (dots inside): no percent-encoding, no
 * empty, `.` or `..` segment, no trailing slash, nothing Hono would decode or normalise first.
 */
const PLAIN_PATH = /^(?:\/[\w-]+(?:\.[\w-]+)*)+$/;
const MAX_PATH = 512;
const MAX_PLANS = 2048;
// The Content-Type @hono/zod-openapi's media-type gate lets through to a JSON body's validator (its
// jsonRequestRegex, stricter than hono/validator's): for these the gate passes and the validator parses.
// Any other type is the app's to answer (415, or a form's own reading).
const JSON_CONTENT_TYPE = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

/**
 * A POST body the lane reads itself: JSON by its type, its length declared and within the cap. Anything
 * else (chunked, too large, another type or none) goes to the app, which answers it as it always has.
 */
function laneBodyLength(req: IncomingMessage, maxBytes: number): number | undefined {
  const type = req.headers["content-type"];
  const declared = req.headers["content-length"];
  if (!type || declared === undefined || req.headers["transfer-encoding"] !== undefined) return undefined;
  if (!JSON_CONTENT_TYPE.test(type)) return undefined;
  const length = Number(declared);
  return length <= maxBytes ? length : undefined;
}

/**
 * The keyed GET routes registered with plainHandler and the keyed JSON POST routes registered with
 * bodyHandler (the chat surfaces), answered on Node's own request and response in front of the Hono app
 * (`next`): the same pipeline as the app's — the middleware the path passes (as each declared with
 * laneStep, error reshaping included), auth, budget and limits (admitKey), validation against the
 * route's contract, the route's function, metering (usageRecorder), errors (errorAnswer) — without
 * Hono's context, compose, Request and Response objects, which cost a keyed request more than its own
 * work (measured: 96 → ~50 µs CPU a GET /v1/key; ~145 → ~120 µs a relayed completion). Which route
 * answers is the app's own router's decision, read once per method and path: the lane serves a path
 * only when the route Hono would run is a plain one and every middleware before it is one the lane
 * knows. A request without a key (a portal session, an optional-key route called keyless), HEAD, a POST
 * body that is not JSON or has no declared length or is over the cap, and anything else go to the app.
 */
export function plainLane(rt: Runtime, app: GatewayApp, next: NodeListener): NodeListener {
  const plans = { GET: new Map<string, Plan | null>(), POST: new Map<string, Plan | null>() };

  function planOf(method: "GET" | "POST", path: string): Plan | null {
    const known = plans[method];
    let plan = known.get(path);
    if (plan !== undefined) return plan;
    plan = planFor(app, path, method);
    if (known.size >= MAX_PLANS) known.clear();
    known.set(path, plan);
    return plan;
  }

  return function plain(req, res) {
    const url = req.url ?? "/";
    const method = req.method;
    if ((method !== "GET" && method !== "POST") || !url.startsWith("/v1/")) return next(req, res);
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    if (path.length > MAX_PATH || !PLAIN_PATH.test(path)) return next(req, res);
    const bodyLength = method === "POST" ? laneBodyLength(req, rt.config.maxBodyBytes) : undefined;
    if (method === "POST" && bodyLength === undefined) return next(req, res);
    const plan = planOf(method, path);
    if (!plan) return next(req, res);
    const search = q === -1 ? undefined : new URLSearchParams(url.slice(q + 1));
    const heads: RequestHeads = {
      header: (name) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value.join(", ") : value;
      },
      query: (name) => search?.get(name) ?? undefined,
    };
    let raw: string | undefined;
    let refused: unknown;
    try {
      raw = presentedKey(heads);
    } catch (err) {
      refused = err;
    }
    // No key: a portal session, or a keyless call of an optional-key route, which the app decides.
    if (raw === undefined && refused === undefined) return next(req, res);
    // A body is read at once, as the app's front middleware does, whatever the answer turns out to be.
    let text: Promise<string> | undefined;
    if (bodyLength !== undefined) {
      text = readDeclaredText(req, bodyLength);
      text.catch(() => {});
    }
    void answer(rt, plan, req, res, heads, search, raw, refused, text);
  };
}

async function answer(
  rt: Runtime,
  plan: Plan,
  req: IncomingMessage,
  res: ServerResponse,
  heads: RequestHeads,
  search: URLSearchParams | undefined,
  raw: string | undefined,
  refused: unknown,
  text: Promise<string> | undefined,
): Promise<void> {
  const started = performance.now();
  const method = plan.plain.method;
  const requestId = requestIdOf(heads.header("x-request-id"));
  const headers: Record<string, string | number> = { "X-Request-Id": requestId };
  let admission: Admission | undefined;
  let record: ReturnType<typeof usageRecorder> | undefined;
  let call: LaneCall | undefined;
  let status = 200;
  let body: string;
  try {
    for (const step of plan.steps) {
      step.check?.(heads.header);
      if (step.headers) Object.assign(headers, step.headers);
    }
    if (refused !== undefined) throw refused;
    const known = rt.keys.resolveKnown(raw!);
    const key = acceptKey(known !== undefined ? known : await resolvePresented(rt.keys, raw!), plan.area, true);
    const meter = usageRecorder(rt, key, {
      requestId,
      method,
      route: plan.route,
      area: plan.area,
      bytesIn: Number(req.headers["content-length"] ?? 0) || 0,
    });
    record = meter;
    admission = await admitKey(rt, key, plan.budgeted, (refusal) => meter(refusal, 0));
    Object.assign(headers, admission.headers);
    call = new LaneCall({ requestId, runtime: rt, key, admission }, res, heads.header);
    const ran = run(plan, call, search, text && (await parsedBody(text)));
    const answered = ran instanceof Promise ? await ran : ran;
    if (answered instanceof StreamAnswer) {
      streamed(rt, res, headers, answered, admission, meter, plan, requestId, started);
      return;
    }
    body = answered;
  } catch (err) {
    const failed = errorAnswer(err, requestId, (e) =>
      rt.logger.error({ err: e, requestId, route: plan.observed }, "unhandled error"),
    );
    status = failed.status;
    body = JSON.stringify(reshaped(plan.steps, failed.status, failed.body as ErrorBody));
    if (failed.headers) Object.assign(headers, failed.headers);
  }
  const bytes = Buffer.byteLength(body);
  headers["Content-Type"] = "application/json";
  headers["Content-Length"] = bytes;
  res.writeHead(status, headers);
  res.end(body);
  if (admission) {
    admission.release();
    record!(status, bytes, call?.usage);
  }
  observeRequest(rt, requestId, method, plan.observed, status, performance.now() - started);
}

/**
 * A request's BodyCall in the lane. A class, not an object literal: a literal with a getter gives every
 * request its own accessor, which V8 keeps in a map in old space, and through that closure the whole
 * request (its response, headers, admission) outlived every scavenge. Measured on GET /v1/key: ~2.7 MB
 * promoted per scavenge and 11-14 ms scavenges, against ~0.3 MB and ~1.5 ms with the getter on a prototype.
 */
class LaneCall implements BodyCall {
  /** The work done (provider, model, tokens), as the route reported it. */
  usage: UsageDetail | undefined;
  #signal: AbortSignal | undefined;

  constructor(
    private readonly variables: Partial<GatewayEnv["Variables"]>,
    private readonly res: ServerResponse,
    readonly header: (name: string) => string | undefined,
  ) {}

  get<K extends keyof GatewayEnv["Variables"]>(name: K): GatewayEnv["Variables"][K] {
    return this.variables[name] as GatewayEnv["Variables"][K];
  }

  /** Made on first use, once: a handler may read it for each provider it tries. */
  get signal(): AbortSignal {
    return (this.#signal ??= clientSignal(this.res));
  }

  stop(ms: number): CallStop {
    const stop = new CallStop(ms);
    if (this.#signal) return stop.follow(this.#signal);
    // The response's own close, as clientSignal hears it, with no AbortSignal made for it.
    whenClientLeaves(this.res, () => stop.leave());
    return stop;
  }

  report(detail: UsageDetail): void {
    this.usage = detail;
  }
}

/** A JSON body as Hono's validator reads it: unparsable is its 400, word for word. */
async function parsedBody(text: Promise<string>): Promise<unknown> {
  const read = await text;
  try {
    return JSON.parse(read) as unknown;
  } catch {
    throw new HTTPException(400, { message: "Malformed JSON in request body" });
  }
}

/** Calls `leave` if the response closes before its answer is complete: the client has gone. */
function whenClientLeaves(res: ServerResponse, leave: () => void): void {
  res.once("close", () => {
    if (!res.writableFinished) leave();
  });
}

/** A signal aborted when the client leaves before its answer is complete (as @hono/node-server's request's is). */
function clientSignal(res: ServerResponse): AbortSignal {
  const left = new AbortController();
  whenClientLeaves(res, () => left.abort());
  return left.signal;
}

/** An error answer in the shape of the surface it is on (the innermost step that reshapes has the last word). */
function reshaped(steps: LaneStep[], status: number, body: ErrorBody): unknown {
  let out: unknown = body;
  for (let i = steps.length - 1; i >= 0; i--) {
    const shape = steps[i]!.reshape;
    if (!shape) continue;
    out = shape(status, out as ErrorBody) ?? out;
  }
  return out;
}

/**
 * A streamed answer, as the guard and the app send one: the head with the request's headers now, the
 * events as they come, and the request metered (tokens, bytes) and its concurrency slot released when
 * the stream ends or the client leaves.
 */
function streamed(
  rt: Runtime,
  res: ServerResponse,
  headers: Record<string, string | number>,
  answer: StreamAnswer,
  admission: Admission,
  meter: ReturnType<typeof usageRecorder>,
  plan: Plan,
  requestId: string,
  started: number,
): void {
  for (const name in headers) res.setHeader(name, headers[name]!);
  let usage: UsageDetail = {};
  rt.meter.recordWhen(
    answer.metered
      .then((detail) => {
        usage = detail;
      })
      .finally(() => {
        admission.release();
        const { bytesOut, ...rest } = usage;
        meter(200, bytesOut ?? 0, rest);
      }),
  );
  eventStreamResponse(res, answer.source);
  observeRequest(rt, requestId, "POST", plan.observed, 200, performance.now() - started);
}

/** The route's input validated as the app's validators do (query, then path, then body), then its function. */
function run(
  plan: Plan,
  call: BodyCall,
  search: URLSearchParams | undefined,
  json: unknown,
): string | StreamAnswer | Promise<string | StreamAnswer> {
  const { plain } = plan;
  const query = plain.query ? acceptInput(plain.query.safeParse(queryObject(search)), "query") : undefined;
  const params = plain.params ? acceptInput(plain.params.safeParse(plan.params ?? {}), "param") : undefined;
  const body = plain.body ? acceptInput(plain.body.safeParse(json), "body") : undefined;
  const answer = plain.handler(call, { query, params, body });
  // Most plain routes answer from memory: no promise to wait for then.
  return answer instanceof Promise ? answer.then(serialise) : serialise(answer);
}

const serialise = (answer: unknown): string | StreamAnswer =>
  answer instanceof StreamAnswer ? answer : answer instanceof JsonText ? answer.text : JSON.stringify(answer);

/** The query as Hono's validator hands it to a schema: one value as a string, a repeated name as an array. */
function queryObject(search: URLSearchParams | undefined): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (!search) return query;
  for (const [name, value] of search) {
    const had = query[name];
    query[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return query;
}

/**
 * What the app's router matches for `method` (GET or POST) `path`, read as a plan when a plain route answers it: the
 * middleware before the route all known to the lane, the route guarded (its area; with a key presented,
 * an optional-key route is served as a keyed one), and
 * between guard and handler only lane steps and the route's own validators. Anything else: null.
 */
export function planFor(app: GatewayApp, path: string, method: "GET" | "POST" = "GET"): Plan | null {
  const result = app.router.match(method, path) as Result<[unknown, RouterRoute]>;
  const entries = result[0] as Entry[];
  const stash = result[1];
  const steps: LaneStep[] = [];
  let winner: string | undefined;
  let access: ReturnType<typeof accessOfGuard>;
  let unknown = 0;
  for (const [[handler, route], params] of entries) {
    if (winner === undefined) {
      if (route.method !== method) {
        const step = laneStepOf(handler);
        if (!step) return null;
        steps.push(step);
        continue;
      }
      winner = route.path;
      access = accessOfGuard(handler);
      if (!access) return null;
      continue;
    }
    if (route.method !== method || route.path !== winner) return null;
    const plain = plainRouteOf(handler);
    if (!plain) {
      const step = laneStepOf(handler);
      if (step) steps.push(step);
      else unknown += 1;
      continue;
    }
    if (plain.method !== method) return null;
    // A JSON body has two: @hono/zod-openapi's media-type gate (passed by every body the lane reads) and its validator.
    if (unknown !== Number(Boolean(plain.query)) + Number(Boolean(plain.params)) + (plain.body ? 2 : 0)) return null;
    const last = entries[entries.length - 1]![0][1].path;
    return {
      plain,
      params: paramsOf(params, stash),
      route: winner,
      observed: last === "/*" || last === "*" ? "unmatched" : last,
      area: access!.area,
      budgeted: access!.budgeted,
      steps,
    };
  }
  return null;
}

/** A match's path parameters: Hono's TrieRouter gives them as they are, its RegExpRouter as indexes into a stash. */
function paramsOf(params: unknown, stash: string[] | undefined): Record<string, string> | undefined {
  if (!params || typeof params !== "object") return undefined;
  const named = params as Record<string, string | number>;
  const out: Record<string, string> = {};
  for (const name in named) out[name] = stash ? stash[named[name] as number]! : String(named[name]);
  return out;
}
