import { ExportResultCode, type ExportResult, type InstrumentationScope } from "@opentelemetry/core";
import { OTLPExporterBase } from "@opentelemetry/otlp-exporter-base";
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from "@opentelemetry/otlp-exporter-base/node-http";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { Resource } from "@opentelemetry/resources";
import type { ReadableSpan, SpanProcessor } from "@opentelemetry/sdk-trace";
import { TraceFlags } from "@opentelemetry/api";
import { requestOf, SpanBatch } from "./otlp-protobuf.ts";

/** An export request already encoded, and how many spans it carries (for the exporter's own metrics). */
type Encoded = { body: Uint8Array; count: number };

/**
 * The official OTLP/HTTP exporter's transport (retries, OTEL_EXPORTER_OTLP_* headers, timeout and
 * compression), assembled as @opentelemetry/exporter-trace-otlp-proto assembles it, sending a body
 * encoded beforehand.
 */
export function protobufTransport(url: string): OTLPExporterBase<Encoded> {
  return new OTLPExporterBase<Encoded>(
    createOtlpHttpExportDelegate(
      convertLegacyHttpOptions({ url }, "TRACES", "v1/traces", { "Content-Type": "application/x-protobuf" }),
      {
        serializeRequest: (encoded: Encoded) => encoded.body,
        deserializeResponse: (data: Uint8Array) => ProtobufTraceSerializer.deserializeResponse(data),
      },
      "otlp_http_span_exporter",
      { name: "span", countItems: (encoded: Encoded) => encoded.count },
      undefined,
    ),
  );
}

export type BatchSettings = {
  scheduledDelayMillis?: number;
  maxQueueSize?: number;
  maxExportBatchSize?: number;
  exportTimeoutMillis?: number;
};

/**
 * The batch span processor for OTLP protobuf, with the SDK's BatchSpanProcessor's settings
 * (OTEL_BSP_*: a batch goes when it is full or its delay has passed; past the queue's size spans are
 * dropped), except that a span is encoded when it ends and the batch holds its bytes. The SDK's holds
 * the span objects until export, so every span outlived young-generation collections and was promoted:
 * that garbage collection was most of what tracing cost a request (docs/adr/0102).
 */
export class EncodingSpanProcessor implements SpanProcessor {
  private batch = new SpanBatch();
  private queued = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly exporting = new Set<Promise<void>>();
  private readonly delayMs: number;
  private readonly maxQueue: number;
  private readonly maxBatch: number;
  private readonly timeoutMs: number;
  private stopped = false;
  /** Spans dropped because the queue was full (the collector slower than the gateway). */
  dropped = 0;

  constructor(
    private readonly transport: Pick<OTLPExporterBase<Encoded>, "export" | "shutdown">,
    private readonly resource: Resource,
    private readonly scope: InstrumentationScope,
    settings: BatchSettings = {},
  ) {
    this.delayMs = settings.scheduledDelayMillis ?? 5_000;
    this.maxQueue = settings.maxQueueSize ?? 2_048;
    this.maxBatch = Math.min(settings.maxExportBatchSize ?? 512, this.maxQueue);
    this.timeoutMs = settings.exportTimeoutMillis ?? 30_000;
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopped || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.queued >= this.maxQueue) {
      this.dropped++;
      return;
    }
    this.batch.add(span);
    this.queued++;
    if (this.batch.count >= this.maxBatch) this.send();
    else this.timer ??= setTimeout(() => this.send(), this.delayMs).unref();
  }

  /** Sends the batch being filled, if it holds anything. */
  private send(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.batch;
    if (batch.count === 0) return;
    this.batch = new SpanBatch();
    const body = requestOf(this.resource, this.scope, batch.bytes);
    const done = new Promise<void>((resolve) => {
      const timeout = setTimeout(() => finish({ code: ExportResultCode.FAILED }), this.timeoutMs).unref();
      let finished = false;
      const finish = (_: ExportResult) => {
        if (finished) return;
        finished = true;
        clearTimeout(timeout);
        this.queued -= batch.count;
        resolve();
      };
      this.transport.export({ body, count: batch.count }, finish);
    });
    this.exporting.add(done);
    void done.then(() => this.exporting.delete(done));
  }

  async forceFlush(): Promise<void> {
    this.send();
    await Promise.all([...this.exporting]);
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    await this.forceFlush();
    this.stopped = true;
    await this.transport.shutdown();
  }
}
