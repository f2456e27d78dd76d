import { errorAnswer, GatewayError } from "../../errors.ts";
import { refuseServiceWorkerScript, UNTRUSTED_RESPONSE_HEADERS } from "../../upstream/untrusted-response.ts";
import type { Area } from "../http/area.ts";
import type { GatewayInfo } from "./gateway-info.ts";
import { acceptKey, authenticate, presentedKey, type RequestView } from "../http/auth.ts";
import type { UsageDetail } from "../http/context.ts";
import type { EventSource } from "../http/event-stream.ts";
import { ACCOUNT_AREA, admitKey, usageRecorder, type UsageRequest } from "../http/guard.ts";
import type { KeyRecord } from "../keys/record.ts";
import { requestIdOf } from "../http/request-id.ts";
import type { Admission } from "../runtime/limits/limiter.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { jsonText, Reply, StreamAnswer, type ReplyBody } from "./answer.ts";
import { Call } from "./call.ts";
import { admitClient, clientAddressOf } from "./client-limit.ts";
import { gatewayErrorMessage, type ErrorBody, type ErrorShape } from "./error-shape.ts";
import { guardrailHeader, policyFor, type PromptGuard } from "../../guardrails/prompt-guard.ts";
import { guardLocally } from "../../guardrails/prompt-offload.ts";
import { checksAnswer } from "../../guardrails/answer-guard.ts";
import type { GuardrailPolicy } from "../../guardrails/policy.ts";
import { checkAnswer } from "./answer-stage.ts";
import { guardRemotely, remoteContext } from "../../guardrails/remote-checks.ts";
import { restoreInJson } from "../../guardrails/redaction.ts";
import { restoringEvents } from "../../guardrails/restore-stream.ts";
import { BodyCapture } from "../../usage/body-capture.ts";
import { parseTags, TAGS_HEADER } from "../../usage/request-tags.ts";
import { USER_AGENT_CHARS } from "../../usage/usage-event.ts";
import { queryValue, type GatewayRequest } from "./request.ts";
import { pathOf, type RouteTable, type TableEntry } from "./route-table.ts";
import { isModelCall, reserveKeyTokens } from "./token-reservation.ts";
import { validatedInput } from "./validate.ts";
import { finishRequestTrace, startRequestTrace, traceRoute } from "../../observability/request-trace.ts";
import type { TraceScope } from "../../observability/trace-scope.ts";

/** An answer ready to write: a body, or events to stream (written as they come). */
export type Outcome = {
  status: number;
  headers: Record<string, string | number>;
  body: ReplyBody;
  events?: EventSource;
};

/** A request's answer as the pipeline makes it; the adapters write it. */
export type Pipeline = (req: GatewayRequest) => Promise<Outcome>;

/** How an area answers on its paths: its surface's error shape, third-party content. */
type Respond = { errors?: ErrorShape; untrusted: boolean };

const JSON_TYPE = "application/json";

/**
 * The gateway's one pipeline, every step a function below, in this order: request id → body cap →
 * match (404, 405) → auth → budget and limits → validation → handler → metering → headers → error
 * shaping. Both adapters (Node's, Fetch's) run it; per request it only hashes, looks up in memory,
 * counts and appends (a key not seen yet is the one read that may wait on the database).
 */
export function createPipeline(rt: Runtime, table: RouteTable, gateway: GatewayInfo, areas: readonly Area[]): Pipeline {
  const unmatched = unmatchedResponder(areas);
  return async function pipeline(req) {
    const started = performance.now();
    const requestId = requestIdOf(req.header("x-request-id"));
    const headers: Record<string, string | number> = { "X-Request-Id": requestId };
    // Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then every step below checks one undefined.
    const trace = rt.tracing && startRequestTrace(rt.tracing, req, requestId);
    let entry: TableEntry | undefined;
    let respond: Respond | undefined;
    let call: Call | undefined;
    let admission: Admission | undefined;
    let record: ReturnType<typeof usageRecorder> | undefined;
    let tagged: ReturnType<typeof parseTags> | undefined;
    // A model call's bodies, for the request log: only when the operator turned REQUEST_LOG_BODIES on.
    let capture: BodyCapture | undefined;
    // What the request log keeps of a keyed request (its recorder reads it when it records).
    let logged: UsageRequest | undefined;
    // A model call under a guardrail policy: what it decided, and the placeholders to put back.
    let guard: PromptGuard | undefined;
    // The policy a model call is under, if any: its answer is checked too when the policy says so.
    let policy: GuardrailPolicy | undefined;
    let outcome: Outcome;
    // The message a failed request was answered with, for the request log.
    let failure: string | undefined;
    try {
      checkBodyCap(rt, req);
      const match = table.match(req.method, req.path);
      if (!match) {
        respond = unmatched(req.path);
        if (respond?.untrusted) untrustedContent(req, headers);
        throw notServed(table, req);
      }
      entry = match.entry;
      if (trace) traceRoute(trace, req.method, entry.label);
      const { access, contract, handler } = entry.def;
      respond = entry.respond;
      if (respond.untrusted) untrustedContent(req, headers);
      call = new Call(rt, requestId, req, gateway, entry.label, entry.area.scope);
      call.trace = trace;
      if (access.auth !== "none") {
        const view = viewOf(req);
        const raw = presentedKey(view);
        // A key this instance knows is accepted from memory, with no promise to wait on.
        const known = raw !== undefined ? rt.keys.resolveKnown(raw) : undefined;
        const lookup =
          known === undefined ? trace?.child("gateway.key_lookup", { "db.system.name": rt.db.kind }) : undefined;
        const key =
          known !== undefined
            ? acceptKey(known, entry.area.scope, true)
            : await authenticate(view, rt, access.auth, entry.area.scope);
        lookup?.end();
        if (key) {
          call.key = key;
          trace?.span.setAttribute("gateway.key_id", key.id);
          const userAgent = req.header("user-agent");
          const tagHeader = req.header(TAGS_HEADER);
          tagged = tagHeader === undefined ? undefined : parseTags(tagHeader);
          if (rt.config.requestLogBodies && entry.area.scope === "llm")
            capture = new BodyCapture(rt.config.requestLogBodies.maxBytes);
          logged = {
            requestId,
            method: req.method,
            route: entry.label,
            area: entry.area.scope,
            bytesIn: req.declaredLength ?? 0,
            ...(trace && { traceId: trace.traceId }),
            ...(userAgent && { userAgent: userAgent.slice(0, USER_AGENT_CHARS) }),
            ...(tagged && "tags" in tagged && { tags: tagged.tags }),
          };
          const meter = usageRecorder(rt, key, logged, capture);
          const spends = access.budgeted && entry.area.scope !== ACCOUNT_AREA;
          const limits = trace?.child("gateway.limits", { "gateway.limits.backend": rt.limitBackend });
          // A refusal is metered by admitKey itself; from here on the answer's outcome is.
          admission = await admitKey(rt, key, spends, (refusal) => {
            limits?.fail("rate_limited").end();
            meter(429, 0, undefined, undefined, refusal.message);
          });
          limits?.end();
          record = meter;
          call.admission = admission;
          Object.assign(headers, admission.headers);
          // Metered as the 400 it is, with the problem in the log.
          if (tagged && "problem" in tagged) throw new GatewayError(400, tagged.problem);
        }
      }
      if (!call.key && access.limitKeyless) {
        const address = clientAddressOf(rt, req.remoteAddress, req.header("x-forwarded-for"));
        admission = await admitClient(rt, address, "keyless-ip", rt.config.keyless);
        Object.assign(headers, admission.headers);
      }
      const checked = validatedInput(contract, req, match.params);
      const input = checked instanceof Promise ? await checked : checked;
      // A keyed model call: its prompt meets the key's guardrails, and its tokens are reserved.
      const key = call.key;
      const modelCall = key !== undefined && entry.area.scope === "llm" && isModelCall(input.body);
      if (modelCall && logged) {
        policy = policyFor(rt.config.routing, rt.levels.guardrailsOf(key), input.body as Record<string, unknown>);
        // A promise only under a policy with a remote check (moderation, webhook).
        const guarding =
          policy && checkPrompt(rt, policy, key, input.body as Record<string, unknown>, headers, requestId);
        guard = guarding instanceof Promise ? await guarding : guarding;
        logged.guardrails = guard?.decisions;
        if (guard?.refusal) throw new GatewayError(guard.refusalStatus ?? 400, guard.refusal);
        // Kept as sent on: redacted when the policy redacts.
        capture?.keepRequest(input.body);
      }
      const meter = record;
      const reserving = modelCall && meter ? reserveKeyTokens(rt, key, entry.label, input.body) : undefined;
      if (reserving && meter) {
        const reservation = await reserving;
        Object.assign(headers, reservation.headers);
        // Settled as the call is metered, whichever way it ends: with the tokens it was metered for.
        record = (status, bytesOut, usage, attempts, error) => {
          reservation.settle((usage?.promptTokens ?? 0) + (usage?.completionTokens ?? 0));
          meter(status, bytesOut, usage, attempts, error);
        };
      }
      // Most handlers answer from memory: no promise to wait for then.
      const running = handler(call, input as never);
      const answered: unknown = running instanceof Promise ? await running : running;
      if (call.responseHeaders) Object.assign(headers, call.responseHeaders);
      outcome = answerOutcome(answered, headers);
      if (capture && outcome.events) outcome.events = capture.tap(outcome.events);
      // Read as the provider gave it: before the prompt's placeholders are put back.
      if (policy && logged && checksAnswer(policy))
        record = await checkAnswer(rt, policy, call, outcome, logged, headers, record);
      if (guard?.values.size) {
        // The caller gets the values back; the log keeps the answer the provider gave.
        if (outcome.events) outcome.events = restoringEvents(outcome.events, guard.values);
        else if (typeof outcome.body === "string") {
          capture?.keepAnswer(outcome.body);
          outcome.body = restoreInJson(outcome.body, guard.values);
        }
      }
      if (outcome.events || outcome.body instanceof ReadableStream) {
        holdUntilEnded(rt, answered as StreamAnswer | Reply, call, admission, record);
        traceGuardrails(trace, headers);
        observe(rt, requestId, req.method, entry, outcome.status, started, trace);
        return outcome;
      }
    } catch (err) {
      if (call?.responseHeaders) Object.assign(headers, call.responseHeaders);
      ({ outcome, message: failure } = errorOutcome(
        rt,
        err,
        requestId,
        trace?.traceId,
        entry,
        respond?.errors,
        headers,
      ));
    }
    admission?.release();
    const body = outcome.body;
    const bytes = typeof body === "string" ? Buffer.byteLength(body) : body instanceof Uint8Array ? body.byteLength : 0;
    if (record) {
      if (capture && typeof body === "string") capture.keepAnswer(body);
      const { bytesOut, ...usage } = call?.usage ?? {};
      record(outcome.status, bytesOut ?? bytes, usage, call?.attempts, failure);
    }
    traceGuardrails(trace, headers);
    observe(rt, requestId, req.method, entry, outcome.status, started, trace);
    if (trace) finishRequestTrace(trace, outcome.status, call?.usage, failureOf(outcome));
    return outcome;
  };
}

/** The request's view for authentication: headers, the query's api_key, the URL. */
function viewOf(req: GatewayRequest): RequestView {
  return { header: (name) => req.header(name), query: (name) => queryValue(req.search, name), url: req.url };
}

/** A body over the cap is refused before anything else reads it: a declared length at once, a chunked one as it is read. */
function checkBodyCap(rt: Runtime, req: GatewayRequest): void {
  const declared = req.declaredLength;
  if (declared !== undefined && declared > rt.config.maxBodyBytes) throw bodyTooLarge(rt.config.maxBodyBytes);
}

/** The 413 of a body over `limit` bytes (the adapters' readers throw it for a chunked body). */
export const bodyTooLarge = (limit: number) =>
  new GatewayError(413, `request body too large: the limit is ${limit} bytes`);

/** No route answers: a 405 with Allow when the path is served with other methods, else a 404. */
function notServed(table: RouteTable, req: GatewayRequest): GatewayError {
  const methods = table.allowed(req.path);
  if (methods.length > 0)
    return new GatewayError(405, `method ${req.method} not allowed here; use ${methods.join(", ")}`, {
      Allow: methods.join(", "),
    });
  return new GatewayError(404, `no such endpoint: ${req.method} ${req.path}`);
}

/**
 * On paths an area answers but no route matches, the area's way of answering (its error shape,
 * third-party content). "/x/*" covers /x itself and everything below it, as the front door reads it.
 */
function unmatchedResponder(areas: readonly Area[]): (rawPath: string) => Respond | undefined {
  let prefixes: { base: string; below: boolean; respond: Respond }[] = [];
  let known = -1;
  return (rawPath) => {
    // Read again when an area was mounted since (tests' probe areas).
    if (known !== areas.length) {
      known = areas.length;
      prefixes = areas
        .filter((a) => a.respond)
        .flatMap((a) =>
          a.paths.map((p) => ({
            base: p.endsWith("/*") ? p.slice(0, -2) : p,
            below: p.endsWith("/*"),
            respond: { untrusted: a.respond!.untrusted ?? false, errors: a.respond!.errors },
          })),
        );
    }
    const path = pathOf(rawPath);
    for (const { base, below, respond } of prefixes)
      if (path === base || (below && path.startsWith(`${base}/`))) return respond;
    return undefined;
  };
}

/** Refuses a service-worker script fetch and puts the untrusted-content headers on every answer, errors included. */
function untrustedContent(req: GatewayRequest, headers: Record<string, string | number>): void {
  Object.assign(headers, UNTRUSTED_RESPONSE_HEADERS);
  refuseServiceWorkerScript(req.header("service-worker"));
}

/** A handler's answer as an outcome, with the request's headers under its own. */
function answerOutcome(answer: unknown, headers: Record<string, string | number>): Outcome {
  if (answer instanceof Reply) {
    Object.assign(headers, answer.headers);
    return { status: answer.status, headers, body: answer.body };
  }
  if (answer instanceof StreamAnswer) return { status: 200, headers, body: null, events: answer.source };
  headers["Content-Type"] = JSON_TYPE;
  return { status: 200, headers, body: jsonText(answer) };
}

/** A streamed answer holds its concurrency slot, and is metered (tokens, bytes), until it ends or the client leaves. */
function holdUntilEnded(
  rt: Runtime,
  answer: StreamAnswer | Reply,
  call: Call,
  admission: Admission | undefined,
  record: ReturnType<typeof usageRecorder> | undefined,
): void {
  const ended: Promise<UsageDetail | void> =
    answer instanceof StreamAnswer ? answer.metered : (answer.ends ?? Promise.resolve());
  const status = answer instanceof Reply ? answer.status : 200;
  let usage: UsageDetail = {};
  const trace = call.trace;
  const stream = trace && streamSpan(trace, call);
  rt.meter.recordWhen(
    ended
      .then((detail) => {
        usage = detail ?? call.usage ?? {};
      })
      .finally(() => {
        if (trace) {
          stream?.event("last_byte").end();
          finishRequestTrace(trace, status, usage);
        }
        admission?.release();
        if (!record) return;
        const { bytesOut, ...rest } = usage;
        record(status, bytesOut ?? 0, rest, call.attempts);
      }),
  );
}

/**
 * An error as its answer: the gateway's forms (errors.ts), in the surface's shape where it has one. An
 * unexpected one is logged with the request's trace id when it is traced, so the log line leads to the trace.
 */
function errorOutcome(
  rt: Runtime,
  err: unknown,
  requestId: string,
  traceId: string | undefined,
  entry: TableEntry | undefined,
  shape: ErrorShape | undefined,
  headers: Record<string, string | number>,
): { outcome: Outcome; message: string | undefined } {
  const failed = errorAnswer(err, requestId, (e) =>
    rt.logger.error({ err: e, requestId, traceId, route: entry?.label ?? "unmatched" }, "unhandled error"),
  );
  if (failed.headers) Object.assign(headers, failed.headers);
  headers["Content-Type"] = JSON_TYPE;
  const body = (shape && shape(failed.status, failed.body as ErrorBody)) ?? failed.body;
  const message = gatewayErrorMessage(failed.body as ErrorBody);
  return { outcome: { status: failed.status, headers, body: JSON.stringify(body) }, message };
}

/** A streamed answer's span, from its first byte (already read from the provider when the answer starts) to its last. */
function streamSpan(trace: TraceScope, call: Call): TraceScope {
  const stream = trace.child("gateway.stream").event("first_byte");
  call.request.whenClientLeaves(() => stream.set({ "gateway.client_left": true }).event("client_left"));
  return stream;
}

/** What a failed answer said, for its span: the gateway's own message of a 5xx (never a 4xx's, which may quote input). */
function failureOf(outcome: Outcome): string | undefined {
  if (outcome.status < 500 || typeof outcome.body !== "string") return undefined;
  try {
    const body = JSON.parse(outcome.body) as { error?: unknown; message?: unknown };
    const error = body.error as { message?: unknown } | string | undefined;
    const message = typeof error === "string" ? error : (error?.message ?? body.message);
    return typeof message === "string" ? message : undefined;
  } catch {
    return undefined;
  }
}

function observe(
  rt: Runtime,
  requestId: string,
  method: string,
  entry: TableEntry | undefined,
  status: number,
  started: number,
  trace: TraceScope | undefined,
): void {
  observeRequest(
    rt,
    requestId,
    method,
    entry?.label ?? "unmatched",
    status,
    performance.now() - started,
    trace?.traceId,
  );
}

/** A request as every answer is counted and logged. Labels by template, never by raw path: no ids or keys. */
function observeRequest(
  rt: Runtime,
  requestId: string,
  method: string,
  route: string,
  status: number,
  ms: number,
  traceId: string | undefined,
): void {
  rt.metrics.requests.record(method, route, status, ms / 1000);
  if (status >= 500) rt.logger.warn({ requestId, traceId, method, route, status }, "request failed");
  // Checked first so that at the default level no log object is built for every request.
  else if (rt.logger.isLevelEnabled("debug"))
    rt.logger.debug({ requestId, traceId, method, route, status, ms }, "request");
}

/**
 * A model call's prompt under its guardrail policy (its key's, its team's, else its alias's): checked, and rewritten
 * in place when the policy redacts; what fired is counted in /metrics and named in x-gateway-guardrails.
 */
function checkPrompt(
  rt: Runtime,
  policy: GuardrailPolicy,
  key: KeyRecord,
  body: Record<string, unknown>,
  headers: Record<string, string | number>,
  requestId: string,
): PromptGuard | Promise<PromptGuard> {
  // A long prompt is checked on a worker thread (prompt-offload.ts): then this waits too.
  const local = guardLocally(rt, policy, body);
  const remotely = (guard: PromptGuard): PromptGuard | Promise<PromptGuard> =>
    // The remote checks wait on the network: only for a policy that has them, and a call not refused already.
    policy.remote && !guard.refusal
      ? guardRemotely(policy, body, guard, remoteContext(rt, requestId, key.id)).then((remote) =>
          recordGuard(rt, remote, headers),
        )
      : recordGuard(rt, guard, headers);
  return local instanceof Promise ? local.then(remotely) : remotely(local);
}

/** The request's span names what its guardrail policy did, as x-gateway-guardrails tells the caller ("pii:redact"). */
function traceGuardrails(trace: TraceScope | undefined, headers: Record<string, string | number>): void {
  const fired = headers["x-gateway-guardrails"];
  if (trace && fired !== undefined) trace.span.setAttribute("gateway.guardrails", fired);
}

/** What fired, counted in /metrics and named in x-gateway-guardrails. */
function recordGuard(rt: Runtime, guard: PromptGuard, headers: Record<string, string | number>): PromptGuard {
  if (guard.decisions.length === 0) return guard;
  for (const d of guard.decisions) rt.metrics.guardrailDecisions.inc({ check: d.check, action: d.action });
  headers["x-gateway-guardrails"] = guardrailHeader(guard.decisions);
  return guard;
}
