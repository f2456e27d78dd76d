import { ROOT_CONTEXT, SpanKind, type Attributes, type TextMapGetter } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from "@opentelemetry/sdk-trace";
import type { TracingSettings } from "./settings.ts";
import { GatewaySampler } from "./sampler.ts";
import { TailKeepProcessor } from "./tail-keep.ts";
import { TraceScope } from "./trace-scope.ts";

const propagator = new W3CTraceContextPropagator();

/** A W3C carrier read through a function: a request's headers, a job's stored context. */
const getter: TextMapGetter<(name: string) => string | undefined> = {
  get: (carrier, key) => carrier(key),
  keys: () => ["traceparent", "tracestate"],
};

/**
 * The process's tracer: spans over OTLP/HTTP (JSON or protobuf) in batches, parent-based ratio
 * sampling with errors and slow traces kept regardless (tail-keep.ts). One per runtime, made only when
 * an endpoint is set (settings.ts); nothing registers globally, so two runtimes in one test process
 * keep apart.
 */
export class Tracing {
  readonly captureContent: boolean;
  private readonly provider: TracerProvider;
  private readonly tracer;

  constructor(settings: TracingSettings, exporter?: SpanExporter) {
    // npm sets it under `npm start`; a process started otherwise says nothing rather than guess.
    const version = process.env.npm_package_version;
    this.captureContent = settings.captureContent;
    const out =
      exporter ??
      (settings.protocol === "http/json"
        ? new JsonExporter({ url: settings.tracesUrl })
        : new ProtobufExporter({ url: settings.tracesUrl }));
    const resource = resourceFromAttributes({
      "service.name": settings.serviceName,
      ...(version && { "service.version": version }),
    }).merge(detectResources({ detectors: [envDetector] }));
    this.provider = new TracerProvider({
      resource,
      sampler: new GatewaySampler(settings.ratio),
      spanProcessors: [
        new TailKeepProcessor(new BatchSpanProcessor({ exporter: out, ...settings.batch }), settings.slowMs),
      ],
    });
    this.tracer = this.provider.getTracer("unified-api-gateway", version);
  }

  /**
   * A local root: a request's server span (kind SERVER), a task's run. `carrier` reads a W3C
   * traceparent/tracestate to continue (a caller's header, a queued job's stored context); a malformed
   * one starts a new trace, as the W3C spec asks.
   */
  root(
    name: string,
    attributes: Attributes,
    carrier?: (name: string) => string | undefined,
    kind: SpanKind = SpanKind.SERVER,
  ): TraceScope {
    const parent =
      carrier && carrier("traceparent") !== undefined
        ? propagator.extract(ROOT_CONTEXT, carrier, getter)
        : ROOT_CONTEXT;
    const span = this.tracer.startSpan(name, { kind, attributes }, parent);
    return new TraceScope(this.tracer, span, this.captureContent);
  }

  /** Sends what is buffered now (a worker finishing a task, a test). */
  flush(): Promise<void> {
    return this.provider.forceFlush();
  }

  /** Exports what is left and stops: part of a draining shutdown. */
  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}
