import { SpanKind } from "@opentelemetry/api";
import type { UsageDetail } from "../gateway/http/context.ts";
import type { GatewayRequest } from "../gateway/pipeline/request.ts";
import type { TraceScope } from "./trace-scope.ts";
import type { Tracing } from "./tracing.ts";

/**
 * A request's server span, continuing the caller's traceparent: named by its method until a route
 * matches (then `METHOD /route/{template}`, never the raw path, which may hold ids or the api_key
 * query), with the request id the caller can find it by.
 */
export function startRequestTrace(tracing: Tracing, req: GatewayRequest, requestId: string): TraceScope {
  return tracing.root(
    req.method,
    { "http.request.method": req.method, "gateway.request_id": requestId },
    (name) => req.header(name),
    SpanKind.SERVER,
  );
}

export function traceRoute(trace: TraceScope, method: string, route: string): void {
  trace.span.updateName(`${method} ${route}`);
  trace.span.setAttribute("http.route", route);
}

/**
 * The request's end: its status (a 5xx is the span's error, as HTTP server spans have it; a 4xx is the
 * caller's and is not), its usage on the model call that answered, then the span.
 */
export function finishRequestTrace(
  trace: TraceScope,
  status: number,
  usage: UsageDetail | undefined,
  failure?: string,
): void {
  trace.span.setAttribute("http.response.status_code", status);
  if (status >= 500) trace.fail(String(status), failure);
  if (usage) trace.settle(usage);
  trace.end();
}
