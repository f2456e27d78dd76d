-- The request's trace id in the request log: when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT), the
-- 32-hex-digit W3C trace id of the request's server span, so a request found by its X-Request-Id leads
-- to its trace (TRACE_URL_TEMPLATE makes it a link). Null when tracing is off: no rewrite, no default.
ALTER TABLE "usage_events" ADD COLUMN "trace_id" TEXT;
