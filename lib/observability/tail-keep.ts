import { SpanStatusCode, TraceFlags, type Context } from "@opentelemetry/api";
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace";

/** Unsampled traces held at once, and spans held per trace: past either the oldest trace is let go. */
const MAX_TRACES = 2_000;
const MAX_SPANS_PER_TRACE = 512;
/** Decisions remembered for spans that end after their trace's root (a task's late tool call). */
const MAX_DECIDED = 4_096;

/**
 * The tail half of sampling: every span is recorded (the sampler only marks which traces the ratio
 * chose), and a trace the ratio left out is still exported when it failed (any span's status is
 * ERROR) or was slow (its local root took `slowMs` or more). Sampled spans pass straight through, so at
 * the default ratio of 1 this costs one flag test per span; unsampled ones wait, bounded, for their
 * local root (the request's span, a task's span) to end and decide for the whole trace.
 */
export class TailKeepProcessor implements SpanProcessor {
  private readonly held = new Map<string, { spans: ReadableSpan[]; failed: boolean }>();
  private readonly decided = new Map<string, boolean>();

  constructor(
    private readonly next: SpanProcessor,
    private readonly slowMs: number,
  ) {}

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    const context = span.spanContext();
    if (context.traceFlags & TraceFlags.SAMPLED) return this.next.onEnd(span);
    const traceId = context.traceId;
    const late = this.decided.get(traceId);
    if (late !== undefined) {
      if (late) this.next.onEnd(asSampled(span));
      return;
    }
    let trace = this.held.get(traceId);
    if (!trace) {
      if (this.held.size >= MAX_TRACES) this.held.delete(this.held.keys().next().value!);
      this.held.set(traceId, (trace = { spans: [], failed: false }));
    }
    if (span.status.code === SpanStatusCode.ERROR) trace.failed = true;
    if (trace.spans.length < MAX_SPANS_PER_TRACE) trace.spans.push(span);
    const parent = span.parentSpanContext;
    if (parent && !parent.isRemote) return;
    // The local root has ended: the whole trace is decided now.
    this.held.delete(traceId);
    const keep = trace.failed || durationMs(span) >= this.slowMs;
    if (this.decided.size >= MAX_DECIDED) this.decided.delete(this.decided.keys().next().value!);
    this.decided.set(traceId, keep);
    if (keep) for (const held of trace.spans) this.next.onEnd(asSampled(held));
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

function durationMs(span: ReadableSpan): number {
  const [seconds, nanos] = span.duration;
  return seconds * 1_000 + nanos / 1e6;
}

/**
 * The span as an exporter takes it: batch processors export only sampled spans, so a kept span is
 * passed on with the sampled flag set, everything else read through from the span itself.
 */
function asSampled(span: ReadableSpan): ReadableSpan {
  const context = { ...span.spanContext(), traceFlags: span.spanContext().traceFlags | TraceFlags.SAMPLED };
  return Object.create(span, { spanContext: { value: () => context } }) as ReadableSpan;
}
