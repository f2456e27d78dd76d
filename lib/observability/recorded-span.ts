import { randomFillSync } from "node:crypto";
import {
  ROOT_CONTEXT,
  SpanStatusCode,
  type Attributes,
  type AttributeValue,
  type Exception,
  type HrTime,
  type Link,
  type Span,
  type SpanContext,
  type SpanKind,
  type SpanStatus,
  type TimeInput,
} from "@opentelemetry/api";
import type { InstrumentationScope } from "@opentelemetry/core";
import type { Resource } from "@opentelemetry/resources";
import type { ReadableSpan, SpanProcessor, Span as SdkSpan, TimedEvent } from "@opentelemetry/sdk-trace";

/** The SDK's default span limits (OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT, OTEL_SPAN_EVENT_COUNT_LIMIT): bounded memory a span. */
export const MAX_ATTRIBUTES = 128;
export const MAX_EVENTS = 128;

const NONE = Object.freeze([]) as unknown as never[];
const ZERO_TIME: HrTime = Object.freeze([0, 0]) as unknown as HrTime;
const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });

/** What every span of one tracer shares: where it reports, and the resource and scope it names. */
export type SpanSink = {
  readonly processor: SpanProcessor;
  readonly resource: Resource;
  readonly scope: InstrumentationScope;
};

/** What starts spans (the process's Tracing): a child's parent is local, so it takes its flags as they are. */
export type SpanStarter = {
  start(
    name: string,
    attributes: Attributes | undefined,
    kind: SpanKind,
    parent?: SpanContext,
    local?: boolean,
  ): RecordedSpan;
};

/**
 * A span as the OTLP exporters and span processors read it (the SDK's ReadableSpan and the API's Span),
 * made in well under a microsecond: ids from a pooled random buffer, times from one clock read, the
 * attributes the gateway sets kept as given. The SDK's own span validates and clamps every attribute
 * against limits read per span and keeps several clocks, about 3 µs a span; a relayed completion makes
 * three (docs/adr/0102). The gateway's code is the only writer, so values are its own typed ones.
 */
export class RecordedSpan implements Span, ReadableSpan {
  /**
   * The attributes as set, in order: names and values side by side. A span's attributes differ in names
   * and order from span to span, so as an object each would take its own hidden classes and every
   * lookup and write would go through a megamorphic cache; two arrays stay monomorphic, and the
   * encoder reads them as they are. `attributes` builds the object for readers that want one.
   */
  readonly attributeNames: string[] = [];
  readonly attributeValues: AttributeValue[] = [];
  // Shared empty values until a span has its own: most spans never get a link, an event or a status.
  readonly links: Link[] = NONE;
  events: TimedEvent[] = NONE;
  status: SpanStatus = UNSET;
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  // Plain private fields, not #fields: the tail-keep processor passes a kept span on as an object whose
  // prototype is this span, and #fields are not reachable through a prototype.
  private isEnded = false;
  /** performance.now() at the start and the end: the HrTimes are made from them only when read. */
  readonly startedAt: number;
  endedAt = 0;

  constructor(
    private readonly sink: SpanSink,
    private readonly context: SpanContext,
    public name: string,
    readonly kind: SpanKind,
    readonly parentSpanContext: SpanContext | undefined,
    attributes: Attributes | undefined,
  ) {
    this.startedAt = performance.now();
    if (attributes) this.setAttributes(attributes);
    sink.processor.onStart(this as SdkSpan, ROOT_CONTEXT);
  }

  get resource(): Resource {
    return this.sink.resource;
  }

  get instrumentationScope(): InstrumentationScope {
    return this.sink.scope;
  }

  get ended(): boolean {
    return this.isEnded;
  }

  get duration(): HrTime {
    return this.isEnded ? hrDuration(this.endedAt - this.startedAt) : ZERO_TIME;
  }

  get startTime(): HrTime {
    return hrTimeAt(this.startedAt);
  }

  get endTime(): HrTime {
    return this.isEnded ? hrTimeAt(this.endedAt) : ZERO_TIME;
  }

  get attributes(): Attributes {
    const attributes: Attributes = {};
    for (let i = 0; i < this.attributeNames.length; i++) attributes[this.attributeNames[i]!] = this.attributeValues[i];
    return attributes;
  }

  spanContext(): SpanContext {
    return this.context;
  }

  setAttribute(key: string, value?: AttributeValue): this {
    if (value === undefined || value === null || this.isEnded) return this;
    const names = this.attributeNames;
    const at = names.indexOf(key);
    if (at >= 0) this.attributeValues[at] = value;
    else if (names.length >= MAX_ATTRIBUTES) this.droppedAttributesCount++;
    else {
      names.push(key);
      this.attributeValues.push(value);
    }
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) this.setAttribute(key, attributes[key]);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.isEnded) return this;
    if (this.events.length >= MAX_EVENTS) {
      this.droppedEventsCount++;
      return this;
    }
    const attributes = isTimeInput(attributesOrTime) ? undefined : attributesOrTime;
    const at = isTimeInput(attributesOrTime) ? attributesOrTime : time;
    if (this.events === NONE) this.events = [];
    this.events.push({
      name,
      time: at === undefined ? hrTimeAt(performance.now()) : toHrTime(at),
      ...(attributes && { attributes }),
      droppedAttributesCount: 0,
    });
    return this;
  }

  /** Links are not made by the gateway; the API's method is kept as a no-op a caller may rely on. */
  addLink(): this {
    return this;
  }

  addLinks(): this {
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (!this.isEnded && this.status.code !== SpanStatusCode.OK) this.status = status;
    return this;
  }

  updateName(name: string): this {
    if (!this.isEnded) this.name = name;
    return this;
  }

  end(): void {
    if (this.isEnded) return;
    this.endedAt = performance.now();
    this.isEnded = true;
    this.sink.processor.onEnd(this);
  }

  isRecording(): boolean {
    return !this.isEnded;
  }

  recordException(exception: Exception): void {
    const e = typeof exception === "string" ? { message: exception } : exception;
    this.addEvent("exception", {
      ...(e.name && { "exception.type": e.name }),
      ...(e.message && { "exception.message": e.message }),
    });
  }
}

/** Random trace and span ids, hex, read from a pooled buffer refilled from the CSPRNG: one fill per 256 spans. */
const pool = Buffer.alloc(8 * 1024);
let poolAt = pool.length;
const ZEROS: Record<number, string> = { 8: "0".repeat(16), 16: "0".repeat(32) };

function randomHex(bytes: number): string {
  for (;;) {
    if (poolAt + bytes > pool.length) {
      randomFillSync(pool);
      poolAt = 0;
    }
    const hex = pool.toString("hex", poolAt, poolAt + bytes);
    poolAt += bytes;
    // An all-zero id is invalid in W3C trace context; at 2^-64 odds it is drawn again.
    if (hex !== ZEROS[bytes]) return hex;
  }
}

export const newTraceId = (): string => randomHex(16);
export const newSpanId = (): string => randomHex(8);

const origin = performance.timeOrigin;

/** Wall-clock time of a performance.now() reading, as OTLP's [seconds, nanoseconds]. */
export function hrTimeAt(now: number): HrTime {
  const ms = origin + now;
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6))];
}

function hrDuration(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6))];
}

function isTimeInput(value: unknown): value is TimeInput {
  return typeof value === "number" || value instanceof Date || Array.isArray(value);
}

function toHrTime(time: TimeInput): HrTime {
  if (Array.isArray(time)) return time as HrTime;
  const ms = typeof time === "number" ? (time < origin ? origin + time : time) : time.getTime();
  return hrDuration(ms);
}
