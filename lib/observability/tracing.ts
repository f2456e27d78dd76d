import {
  ROOT_CONTEXT,
  SpanKind,
  trace,
  type Attributes,
  type SpanContext,
  type TextMapGetter,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type SpanExporter, type SpanProcessor } from "@opentelemetry/sdk-trace";
import { GATEWAY_VERSION } from "../version.ts";
import type { TracingSettings } from "./settings.ts";
import { GatewaySampler } from "./sampler.ts";
import { EncodingSpanProcessor, protobufTransport } from "./protobuf-exporter.ts";
import { newSpanId, newTraceId, RecordedSpan, type SpanSink } from "./recorded-span.ts";
import { TailKeepProcessor } from "./tail-keep.ts";
import { TraceScope } from "./trace-scope.ts";

const propagator = new W3CTraceContextPropagator();

/** A W3C carrier read through a function: a request's headers, a job's stored context. */
const getter: TextMapGetter<(name: string) => string | undefined> = {
  get: (carrier, key) => carrier(key),
  keys: () => ["traceparent", "tracestate"],
};

/**
 * The process's tracer: spans over OTLP/HTTP (JSON or protobuf) in batches by the SDK's batch processor
 * and the official exporters, parent-based ratio sampling with errors and slow traces kept regardless
 * (tail-keep.ts). Spans are RecordedSpans rather than the SDK tracer's (recorded-span.ts says why). One
 * per runtime, made only when an endpoint is set (settings.ts); nothing registers globally, so two
 * runtimes in one test process keep apart.
 */
export class Tracing {
  readonly captureContent: boolean;
  private readonly sink: SpanSink;
  private readonly processor: SpanProcessor;
  private readonly sampler: GatewaySampler;

  constructor(settings: TracingSettings, exporter?: SpanExporter) {
    const version = GATEWAY_VERSION;
    this.captureContent = settings.captureContent;
    const resource = resourceFromAttributes({
      "service.name": settings.serviceName,
      "service.version": version,
    }).merge(detectResources({ detectors: [envDetector] }));
    const scope = { name: "unified-api-gateway", version };
    // OTLP protobuf, the default, encodes spans as they end (protobuf-exporter.ts says why); JSON, and an
    // exporter handed in (tests, benchmarks), go through the SDK's batch processor.
    const batching: SpanProcessor =
      exporter || settings.protocol === "http/json"
        ? new BatchSpanProcessor({
            exporter: exporter ?? new JsonExporter({ url: settings.tracesUrl }),
            ...settings.batch,
          })
        : new EncodingSpanProcessor(protobufTransport(settings.tracesUrl), resource, scope, settings.batch);
    this.sampler = new GatewaySampler(settings.ratio);
    this.processor = new TailKeepProcessor(batching, settings.slowMs);
    this.sink = { processor: this.processor, resource, scope };
  }

  /**
   * A span, started now, under `parent` or as a new trace's root. A local parent (one of this process's
   * spans) is valid by construction, and its child takes its flags; a remote one (a caller's traceparent)
   * goes through the sampler.
   */
  start(
    name: string,
    attributes: Attributes | undefined,
    kind: SpanKind,
    parent?: SpanContext,
    local = false,
  ): RecordedSpan {
    const traceId = parent?.traceId ?? newTraceId();
    const traceFlags = local ? parent!.traceFlags : this.sampler.flags(parent, traceId);
    const context: SpanContext = { traceId, spanId: newSpanId(), traceFlags };
    return new RecordedSpan(this.sink, context, name, kind, parent, attributes);
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
        ? trace.getSpanContext(propagator.extract(ROOT_CONTEXT, carrier, getter))
        : undefined;
    return new TraceScope(this, this.start(name, attributes, kind, parent), this.captureContent);
  }

  /** Sends what is buffered now (a worker finishing a task, a test). */
  flush(): Promise<void> {
    return this.processor.forceFlush();
  }

  /** Exports what is left and stops: part of a draining shutdown. */
  shutdown(): Promise<void> {
    return this.processor.shutdown();
  }
}
