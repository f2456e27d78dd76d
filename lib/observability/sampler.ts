import { isSpanContextValid, trace, TraceFlags, type Context } from "@opentelemetry/api";
import {
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SamplingResult,
} from "@opentelemetry/sdk-trace";

const SAMPLED: SamplingResult = { decision: SamplingDecision.RECORD_AND_SAMPLED };
const RECORDED: SamplingResult = { decision: SamplingDecision.RECORD };

/**
 * Parent-based ratio sampling that never drops a span outright: a child follows its parent's flag, a
 * root is chosen by the SDK's trace-id ratio, and what is not chosen is still recorded (RECORD) so the
 * tail-keep processor can export it if it fails or is slow. The SDK's ParentBasedSampler wrapped in its
 * always-record sampler decides the same, through three objects a span; this is one call.
 */
export class GatewaySampler implements Sampler {
  private readonly ratio: TraceIdRatioBasedSampler;

  constructor(ratio: number) {
    this.ratio = new TraceIdRatioBasedSampler(ratio);
  }

  shouldSample(context: Context, traceId: string): SamplingResult {
    const parent = trace.getSpanContext(context);
    if (parent && isSpanContextValid(parent)) return parent.traceFlags & TraceFlags.SAMPLED ? SAMPLED : RECORDED;
    return this.ratio.shouldSample(context, traceId).decision === SamplingDecision.RECORD_AND_SAMPLED
      ? SAMPLED
      : RECORDED;
  }

  toString(): string {
    return `GatewaySampler{${this.ratio.toString()}}`;
  }
}
