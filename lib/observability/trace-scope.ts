import { SpanKind, SpanStatusCode, type Attributes } from "@opentelemetry/api";
import { usageAttributes, type AnswerUsage } from "./genai.ts";
import type { RecordedSpan, SpanStarter } from "./recorded-span.ts";

/**
 * One span and how to make its children: what the gateway hands down a request's (or a task's) work
 * instead of an ambient context. Passed explicitly (Call.trace, a plan's trace, a stop's traceparent),
 * never through AsyncLocalStorage, whose promise hooks would cost every promise of the process on
 * Node 20 whether or not its work is traced. Absent whenever tracing is off, so untraced work pays one
 * `undefined` check.
 */
export class TraceScope {
  /** The span of the model call that answered, open until its usage is known (settle) or this scope ends. */
  #answered: TraceScope | undefined;

  constructor(
    private readonly tracing: SpanStarter,
    readonly span: RecordedSpan,
    /** Prompt and completion text may go on model-call spans (OTEL_GENAI_CAPTURE_CONTENT=true). */
    readonly captureContent: boolean,
  ) {}

  /** A span under this one, started now. */
  child(name: string, attributes?: Attributes, kind: SpanKind = SpanKind.INTERNAL): TraceScope {
    const span = this.tracing.start(name, attributes, kind, this.span.spanContext(), true);
    return new TraceScope(this.tracing, span, this.captureContent);
  }

  get traceId(): string {
    return this.span.spanContext().traceId;
  }

  /** The W3C traceparent naming this span: what an outgoing request under it carries. */
  get traceparent(): string {
    const { traceId, spanId, traceFlags } = this.span.spanContext();
    return `00-${traceId}-${spanId}-0${traceFlags & 1}`;
  }

  set(attributes: Attributes): this {
    this.span.setAttributes(attributes);
    return this;
  }

  event(name: string, attributes?: Attributes): this {
    this.span.addEvent(name, attributes);
    return this;
  }

  /** Marks the span failed, with a short reason that names no key and quotes no content. */
  fail(errorType: string, message?: string): this {
    this.span.setAttribute("error.type", errorType);
    this.span.setStatus({
      code: SpanStatusCode.ERROR,
      ...(message !== undefined && { message: message.slice(0, 300) }),
    });
    return this;
  }

  /**
   * Keeps `answered` (the attempt that answered a model call) open: its usage is known only once the
   * handler reports it, or a stream ends. The previous one held, if any, ends now.
   */
  hold(answered: TraceScope): void {
    this.#answered?.end();
    this.#answered = answered;
  }

  /** The answered model call's usage on its span, which ends with it. */
  settle(usage: AnswerUsage): void {
    const answered = this.#answered;
    if (!answered) return;
    this.#answered = undefined;
    answered.set(usageAttributes(usage)).end();
  }

  /** Ends the span (and a model call's span still held). */
  end(): void {
    if (this.#answered) {
      this.#answered.end();
      this.#answered = undefined;
    }
    this.span.end();
  }
}
