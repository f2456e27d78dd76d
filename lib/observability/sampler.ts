import { isSpanContextValid, ROOT_CONTEXT, TraceFlags, type SpanContext } from "@opentelemetry/api";
import { SamplingDecision, TraceIdRatioBasedSampler } from "@opentelemetry/sdk-trace";

/**
 * Parent-based ratio sampling that never drops a span outright: a child follows its parent's flag, a
 * root is chosen by the SDK's trace-id ratio, and what is not chosen is still recorded (flags without
 * SAMPLED) so the tail-keep processor can export it if it fails or is slow. The SDK's
 * ParentBasedSampler wrapped in its always-record sampler decides the same, through three objects a
 * span; this is one call.
 */
export class GatewaySampler {
  private readonly ratio: TraceIdRatioBasedSampler;
  /** Every root sampled (the default ratio of 1): nothing to read from the trace id. */
  private readonly all: boolean;

  constructor(ratio: number) {
    this.ratio = new TraceIdRatioBasedSampler(ratio);
    this.all = ratio >= 1;
  }

  /** The trace flags of a new span whose parent is `parent` (a local span, or a caller's traceparent). */
  flags(parent: SpanContext | undefined, traceId: string): TraceFlags {
    if (parent && isSpanContextValid(parent)) return parent.traceFlags & TraceFlags.SAMPLED;
    // The gateway's own ids are valid by construction (recorded-span.ts), so the ratio's validity check adds nothing.
    if (this.all) return TraceFlags.SAMPLED;
    return this.ratio.shouldSample(ROOT_CONTEXT, traceId).decision === SamplingDecision.RECORD_AND_SAMPLED
      ? TraceFlags.SAMPLED
      : TraceFlags.NONE;
  }

  toString(): string {
    return `GatewaySampler{${this.ratio.toString()}}`;
  }
}
