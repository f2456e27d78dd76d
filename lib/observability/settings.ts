/** How traces leave the process: where, in which encoding, and which of them. */
export type TracingSettings = {
  /** The collector's traces URL (…/v1/traces). */
  tracesUrl: string;
  protocol: "http/json" | "http/protobuf";
  serviceName: string;
  /** The share of traces without a sampled parent that are kept (errors and slow ones are kept regardless). */
  ratio: number;
  /** A trace whose local root took at least this long is kept whatever the ratio said. */
  slowMs: number;
  /** Prompt and completion text on model-call spans (OTEL_GENAI_CAPTURE_CONTENT=true); off by default. */
  captureContent: boolean;
  batch: {
    scheduledDelayMillis?: number;
    maxQueueSize?: number;
    maxExportBatchSize?: number;
    exportTimeoutMillis?: number;
  };
};

type Env = Record<string, string | undefined>;

/**
 * Tracing's settings from the standard OTEL_* variables, or undefined (tracing off, at no cost) when
 * no endpoint is set, the SDK is disabled or the traces exporter is "none". A value that cannot be
 * read is an error at start, never a silent default.
 */
export function tracingSettings(env: Env = process.env): TracingSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return undefined;
  const tracesUrl = tracesEndpoint(env);
  if (!tracesUrl) return undefined;
  return {
    tracesUrl,
    protocol: protocolOf(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || "unified-api-gateway",
    ratio: ratioOf(env.OTEL_TRACES_SAMPLER, env.OTEL_TRACES_SAMPLER_ARG),
    slowMs: numberOf(env, "OTEL_TRACES_KEEP_SLOW_MS") ?? 2_000,
    captureContent: env.OTEL_GENAI_CAPTURE_CONTENT?.trim().toLowerCase() === "true",
    batch: {
      ...optional("scheduledDelayMillis", numberOf(env, "OTEL_BSP_SCHEDULE_DELAY")),
      ...optional("maxQueueSize", numberOf(env, "OTEL_BSP_MAX_QUEUE_SIZE")),
      ...optional("maxExportBatchSize", numberOf(env, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE")),
      ...optional("exportTimeoutMillis", numberOf(env, "OTEL_BSP_EXPORT_TIMEOUT")),
    },
  };
}

/** The traces-specific endpoint as given, else the base endpoint with /v1/traces, as the OTLP exporter spec says. */
function tracesEndpoint(env: Env): string | undefined {
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = specific || (base ? `${base.replace(/\/+$/, "")}/v1/traces` : undefined);
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error();
  } catch {
    throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, got '${url.slice(0, 200)}'`);
  }
  return url;
}

function protocolOf(value: string | undefined): TracingSettings["protocol"] {
  const protocol = value?.trim() || "http/protobuf";
  if (protocol === "http/json" || protocol === "http/protobuf") return protocol;
  throw new Error(
    `OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (grpc is not supported), got '${protocol}'`,
  );
}

/**
 * The root ratio: OTEL_TRACES_SAMPLER_ARG under the parent-based and ratio samplers (the gateway always
 * decides parent-based: a caller's sampled trace is continued), 1 for always_on, 0 for always_off.
 */
function ratioOf(sampler: string | undefined, arg: string | undefined): number {
  const name = sampler?.trim().toLowerCase() || "parentbased_traceidratio";
  if (name === "always_on" || name === "parentbased_always_on") return 1;
  if (name === "always_off" || name === "parentbased_always_off") return 0;
  if (name !== "traceidratio" && name !== "parentbased_traceidratio")
    throw new Error(
      `OTEL_TRACES_SAMPLER must be one of parentbased_traceidratio, traceidratio, always_on, always_off (and their parentbased_ forms), got '${sampler}'`,
    );
  if (arg === undefined || arg.trim() === "") return 1;
  const ratio = Number(arg);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new Error(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got '${arg}'`);
  return ratio;
}

function numberOf(env: Env, name: string): number | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got '${value}'`);
  return n;
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}
