import { SpanKind } from "@opentelemetry/api";
import type { TraceScope } from "./trace-scope.ts";

const DEFAULT_PORT: Record<string, number> = { "http:": 80, "https:": 443 };

/**
 * One request to a third-party API, as the HTTP client conventions have it: kind CLIENT, named by the
 * method and the upstream (`GET wikipedia`), with its server and which resend it is. Never the URL:
 * its path and query may hold a user's search, an id or the operator's api key.
 */
export function httpClientSpan(
  trace: TraceScope,
  method: string,
  url: string,
  upstream: string,
  resend: number,
): TraceScope {
  const { protocol, hostname, port } = new URL(url);
  const span = trace.child(
    `${method} ${upstream}`,
    {
      "http.request.method": method,
      "server.address": hostname,
      "server.port": port ? Number(port) : (DEFAULT_PORT[protocol] ?? 0),
      "gateway.upstream": upstream,
    },
    SpanKind.CLIENT,
  );
  if (resend > 0) span.set({ "http.request.resend_count": resend });
  return span;
}

/** The answer's status; a 4xx or 5xx fails the span (a client's error, as the conventions say for CLIENT spans). */
export function httpClientStatus(span: TraceScope, status: number): void {
  span.set({ "http.response.status_code": status });
  if (status >= 400) span.fail(String(status));
}
