import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { Tracing } from "../../lib/observability/tracing.ts";
import type { TraceScope } from "../../lib/observability/trace-scope.ts";

export type MemoryTracing = {
  tracing: Tracing;
  /** A root span to hang the work under test from. */
  root(name?: string): TraceScope;
  /** Every span ended so far, once the exporter has them. */
  spans(): Promise<ReadableSpan[]>;
};

/** A Tracing that keeps every span in memory, for unit tests of what code puts in its spans. */
export function memoryTracing(): MemoryTracing {
  const exporter = new InMemorySpanExporter();
  const tracing = new Tracing(
    {
      tracesUrl: "http://127.0.0.1:9/v1/traces",
      protocol: "http/json",
      serviceName: "test",
      ratio: 1,
      slowMs: 60_000,
      captureContent: false,
      batch: { scheduledDelayMillis: 1 },
    },
    exporter,
  );
  return {
    tracing,
    root: (name = "test") => tracing.root(name, {}),
    async spans() {
      await tracing.flush();
      return exporter.getFinishedSpans();
    },
  };
}

/** A span's parent span id (the SDK's 2.x shape). */
export const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

/** The spans whose parent is `parent`. */
export const spansUnder = (spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] =>
  spans.filter((s) => parentOf(s) === parent.spanContext().spanId);
