/** How /metrics' series also leave the process over OTLP: where, in which encoding, how often. */
export type OtlpMetricsSettings = {
  /** The collector's metrics URL (…/v1/metrics). */
  metricsUrl: string;
  protocol: "http/json" | "http/protobuf";
  serviceName: string;
  /** Between exports (OTEL_METRIC_EXPORT_INTERVAL, 60 s by default). */
  intervalMs: number;
  /** The most one export may take (OTEL_METRIC_EXPORT_TIMEOUT, 30 s, at most the interval). */
  timeoutMs: number;
};

type Env = Record<string, string | undefined>;

/**
 * OTLP metrics' settings from the standard OTEL_* variables, or undefined (nothing exported, nothing
 * loaded) when no endpoint is set, the SDK is disabled or the metrics exporter is "none". A value that
 * cannot be read is an error at start, as for traces (settings.ts).
 */
export function otlpMetricsSettings(env: Env = process.env): OtlpMetricsSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  if (env.OTEL_METRICS_EXPORTER?.trim().toLowerCase() === "none") return undefined;
  const metricsUrl = metricsEndpoint(env);
  if (!metricsUrl) return undefined;
  const intervalMs = positive(env, "OTEL_METRIC_EXPORT_INTERVAL") ?? 60_000;
  return {
    metricsUrl,
    protocol: protocolOf(env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || "unified-api-gateway",
    intervalMs,
    // The SDK refuses a timeout longer than the interval.
    timeoutMs: Math.min(positive(env, "OTEL_METRIC_EXPORT_TIMEOUT") ?? 30_000, intervalMs),
  };
}

/** The metrics-specific endpoint as given, else the base endpoint with /v1/metrics, as the OTLP exporter spec says. */
function metricsEndpoint(env: Env): string | undefined {
  const specific = env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = specific || (base ? `${base.replace(/\/+$/, "")}/v1/metrics` : undefined);
  if (!url) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // Reported below.
  }
  if (parsed?.protocol !== "http:" && parsed?.protocol !== "https:")
    throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, got '${url.slice(0, 200)}'`);
  return url;
}

function protocolOf(value: string | undefined): OtlpMetricsSettings["protocol"] {
  const protocol = value?.trim() || "http/protobuf";
  if (protocol === "http/json" || protocol === "http/protobuf") return protocol;
  throw new Error(
    `OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (grpc is not supported), got '${protocol}'`,
  );
}

function positive(env: Env, name: string): number | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`${name} must be a positive number of milliseconds, got '${value}'`);
  return n;
}
