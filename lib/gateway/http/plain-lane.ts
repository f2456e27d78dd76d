import type { IncomingMessage, ServerResponse } from "node:http";
import type { Result } from "hono/router";
import type { RouterRoute } from "hono/types";
import { errorAnswer } from "../../errors.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { Admission } from "../runtime/limits/limiter.ts";
import type { KeyRecord } from "../keys/record.ts";
import { observeRequest, type GatewayApp } from "./app.ts";
import { acceptKey, presentedKey, resolvePresented, type RequestHeads } from "./auth.ts";
import type { GatewayEnv, RequestVariables } from "./context.ts";
import { accessOfGuard, admitKey, usageRecorder } from "./guard.ts";
import { JsonText } from "./json-text.ts";
import { laneStepOf, plainRouteOf, type LaneStep, type PlainRoute } from "./plain-route.ts";
import { requestIdOf } from "./request-id.ts";
import { acceptInput } from "./validation.ts";

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** How the app would answer a GET of one path, when a plain route answers it. */
type Plan = {
  plain: PlainRoute;
  params: Record<string, string> | undefined;
  /** The route's template, as the guard meters it. */
  route: string;
  /** The label the app's metrics and log give the request (the last route it matched). */
  observed: string;
  area: string;
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

/**
 * The keyed GET routes registered with plainHandler, answered on Node's own request and response in front
 * of the Hono app (`next`): the same pipeline as the app's — the middleware the path passes (as each
 * declared with laneStep), auth, budget and limits (admitKey), validation against the route's contract,
 * the route's function, metering (usageRecorder), errors (errorAnswer) — without Hono's context, compose,
 * Request and Response objects, which cost a keyed request more than its own work (measured: 96 → ~50 µs
 * CPU a GET /v1/key). Which route answers is the app's own router's decision, read once per path: the
 * lane serves a path only when the route Hono would run is a plain one and every middleware before it is
 * one the lane knows. A request without a key (a portal session, an optional-key route called keyless),
 * HEAD, and anything else go to the app.
 */
export function plainLane(rt: Runtime, app: GatewayApp, next: NodeListener): NodeListener {
  const plans = new Map<string, Plan | null>();

  function planOf(path: string): Plan | null {
    let plan = plans.get(path);
    if (plan !== undefined) return plan;
    plan = planFor(app, path);
    if (plans.size >= MAX_PLANS) plans.clear();
    plans.set(path, plan);
    return plan;
  }

  return function plain(req, res) {
    const url = req.url ?? "/";
    if (req.method !== "GET" || !url.startsWith("/v1/")) return next(req, res);
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    if (path.length > MAX_PATH || !PLAIN_PATH.test(path)) return next(req, res);
    const plan = planOf(path);
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
    void answer(rt, plan, req, res, heads, search, raw, refused);
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
): Promise<void> {
  const started = performance.now();
  const requestId = requestIdOf(heads.header("x-request-id"));
  const headers: Record<string, string | number> = { "X-Request-Id": requestId };
  let admission: Admission | undefined;
  let record: ReturnType<typeof usageRecorder> | undefined;
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
      method: "GET",
      route: plan.route,
      area: plan.area,
      bytesIn: Number(req.headers["content-length"] ?? 0) || 0,
    });
    record = meter;
    admission = await admitKey(rt, key, (refusal) => meter(refusal, 0));
    Object.assign(headers, admission.headers);
    const ran = run(rt, plan, requestId, key, admission, search);
    body = typeof ran === "string" ? ran : await ran;
  } catch (err) {
    const failed = errorAnswer(err, requestId, (e) =>
      rt.logger.error({ err: e, requestId, route: plan.observed }, "unhandled error"),
    );
    status = failed.status;
    body = JSON.stringify(failed.body);
    if (failed.headers) Object.assign(headers, failed.headers);
  }
  const bytes = Buffer.byteLength(body);
  headers["Content-Type"] = "application/json";
  headers["Content-Length"] = bytes;
  res.writeHead(status, headers);
  res.end(body);
  if (admission) {
    admission.release();
    record!(status, bytes);
  }
  observeRequest(rt, requestId, "GET", plan.observed, status, performance.now() - started);
}

/** The route's input validated as the app's validators do (query, then path), then its function. */
function run(
  rt: Runtime,
  plan: Plan,
  requestId: string,
  key: KeyRecord,
  admission: Admission,
  search: URLSearchParams | undefined,
): string | Promise<string> {
  const { plain } = plan;
  const query = plain.query ? acceptInput(plain.query.safeParse(queryObject(search)), "query") : undefined;
  const params = plain.params ? acceptInput(plain.params.safeParse(plan.params ?? {}), "param") : undefined;
  const variables: Partial<GatewayEnv["Variables"]> = { requestId, runtime: rt, key, admission };
  const c = { get: (name: keyof GatewayEnv["Variables"]) => variables[name] } as RequestVariables;
  const answer = plain.handler(c, { query, params });
  // Most plain routes answer from memory: no promise to wait for then.
  return answer instanceof Promise ? answer.then(serialise) : serialise(answer);
}

const serialise = (answer: unknown): string => (answer instanceof JsonText ? answer.text : JSON.stringify(answer));

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
 * What the app's router matches for GET `path`, read as a plan when a plain route answers it: the
 * middleware before the route all known to the lane, the route guarded (its area; with a key presented,
 * an optional-key route is served as a keyed one), and
 * between guard and handler only lane steps and the route's own validators. Anything else: null.
 */
export function planFor(app: GatewayApp, path: string): Plan | null {
  const result = app.router.match("GET", path) as Result<[unknown, RouterRoute]>;
  const entries = result[0] as Entry[];
  const stash = result[1];
  const steps: LaneStep[] = [];
  let winner: string | undefined;
  let access: ReturnType<typeof accessOfGuard>;
  let unknown = 0;
  for (const [[handler, route], params] of entries) {
    if (winner === undefined) {
      if (route.method !== "GET") {
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
    if (route.method !== "GET" || route.path !== winner) return null;
    const plain = plainRouteOf(handler);
    if (!plain) {
      const step = laneStepOf(handler);
      if (step) steps.push(step);
      else unknown += 1;
      continue;
    }
    if (unknown !== Number(Boolean(plain.query)) + Number(Boolean(plain.params))) return null;
    const last = entries[entries.length - 1]![0][1].path;
    return {
      plain,
      params: paramsOf(params, stash),
      route: winner,
      observed: last === "/*" || last === "*" ? "unmatched" : last,
      area: access!.area,
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
