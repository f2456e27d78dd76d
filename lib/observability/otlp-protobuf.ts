import type { AttributeValue, Attributes, HrTime } from "@opentelemetry/api";
import type { InstrumentationScope } from "@opentelemetry/core";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { Resource } from "@opentelemetry/resources";
import type { ReadableSpan, TimedEvent } from "@opentelemetry/sdk-trace";
import { RecordedSpan } from "./recorded-span.ts";

/**
 * OTLP's ExportTraceServiceRequest in protobuf, byte for byte what the SDK's ProtobufTraceSerializer
 * writes (a test holds the two to that), in one pass over a growing Buffer: strings and hex ids are
 * written by Buffer's native UTF-8 and hex writers, a message's length is written after it (its bytes
 * moved along when the length takes more than one byte), and a resource's bytes are made once. The
 * SDK's measures every string twice, once to size the buffer, and turns ids into bytes one character at
 * a time; at three spans a relayed completion it was most of what tracing cost (docs/adr/0102).
 */
export class Writer {
  buf: Buffer;
  pos = 0;

  constructor(size = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(size);
  }

  private room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  varint(value: number): void {
    this.room(10);
    const buf = this.buf;
    if (value >= 0 && value <= 0xffffffff) {
      let v = value >>> 0;
      while (v > 0x7f) {
        buf[this.pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buf[this.pos++] = v;
      return;
    }
    // int64 past 32 bits, or negative (two's complement over ten bytes), as the SDK's writer does.
    const abs = Math.abs(value);
    let low = abs >>> 0;
    let high = (abs / 0x100000000) >>> 0;
    if (value < 0) {
      low = ~low >>> 0;
      high = ~high >>> 0;
      low = (low + 1) >>> 0;
      if (low === 0) high = (high + 1) >>> 0;
    }
    while (high > 0 || low > 0x7f) {
      buf[this.pos++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    buf[this.pos++] = low & 0x7f;
  }

  string(value: string): void {
    // Most strings here are short ASCII (attribute names, routes, model ids): copied in JavaScript, as a
    // call into Buffer's native writer costs more than the copy. Anything else goes to the native writer.
    const n = value.length;
    if (n < 0x80) {
      this.room(n + 1);
      const buf = this.buf;
      const start = this.pos;
      let i = 0;
      for (; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c >= 0x80) break;
        buf[start + 1 + i] = c;
      }
      if (i === n) {
        buf[start] = n;
        this.pos = start + 1 + n;
        return;
      }
    }
    const length = Buffer.byteLength(value);
    this.varint(length);
    this.room(length);
    this.pos += this.buf.write(value, this.pos, length, "utf8");
  }

  /** A hex id (16 or 8 bytes) as bytes, converted in JavaScript for the same reason. */
  hexBytes(hex: string): void {
    const length = hex.length >>> 1;
    this.varint(length);
    this.room(length);
    const buf = this.buf;
    for (let i = 0; i < length; i++)
      buf[this.pos++] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  }

  bytes(value: Uint8Array): void {
    this.varint(value.length);
    this.room(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  raw(value: Uint8Array): void {
    this.room(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  fixed32(value: number): void {
    this.room(4);
    this.pos = this.buf.writeUInt32LE(value >>> 0, this.pos);
  }

  double(value: number): void {
    this.room(8);
    this.pos = this.buf.writeDoubleLE(value, this.pos);
  }

  /** An HrTime as fixed64 nanoseconds, split as the SDK splits it so no product passes 2^53. */
  time([seconds, nanos]: HrTime): void {
    this.timeOf(seconds, nanos);
  }

  /** A performance.now() reading as its wall-clock time, as time(hrTimeAt(now)) writes it, with no array made. */
  timeAt(now: number): void {
    const ms = TIME_ORIGIN + now;
    const seconds = Math.floor(ms / 1000);
    this.timeOf(seconds, Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6)));
  }

  private timeOf(seconds: number, nanos: number): void {
    const lowerNanos = (seconds & 0xffff) * 1e9;
    const upperNanos = ((seconds / 0x10000) >>> 0) * 1e9;
    const low = (lowerNanos >>> 0) + (((upperNanos & 0xffff) * 0x10000) >>> 0) + nanos;
    const high = Math.floor(lowerNanos / 0x100000000) + ((upperNanos / 0x10000) >>> 0) + Math.floor(low / 0x100000000);
    this.room(8);
    this.buf.writeUInt32LE(low >>> 0, this.pos);
    this.buf.writeUInt32LE(high >>> 0, this.pos + 4);
    this.pos += 8;
  }

  /** Starts a length-delimited message: one byte kept for its length, which most lengths fit. */
  begin(): number {
    this.room(1);
    return this.pos++;
  }

  /** Writes the length of the message begun at `start`, moving its bytes along if the length needs more room. */
  end(start: number): void {
    const length = this.pos - start - 1;
    if (length < 0x80) {
      this.buf[start] = length;
      return;
    }
    const size = varintSize(length);
    this.room(size - 1);
    this.buf.copyWithin(start + size, start + 1, this.pos);
    this.pos += size - 1;
    const end = this.pos;
    this.pos = start;
    this.varint(length);
    this.pos = end;
  }

  /** The bytes written so far, not copied. */
  view(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  finish(): Uint8Array {
    return new Uint8Array(this.buf.buffer, this.buf.byteOffset, this.pos).slice();
  }
}

/** A hex digit's value: 0-9, a-f, A-F. */
function nibble(c: number): number {
  return c <= 57 ? c - 48 : (c | 32) - 87;
}

function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

const TIME_ORIGIN = performance.timeOrigin;

const MIN_INT64 = -(2 ** 63);
const MAX_INT64 = 2 ** 63;

function attributes(w: Writer, values: Attributes, field: number): void {
  for (const key in values) {
    if (!Object.prototype.hasOwnProperty.call(values, key)) continue;
    w.tag(field, 2);
    const kv = w.begin();
    keyValue(w, key, values[key]);
    w.end(kv);
  }
}

/** A RecordedSpan's attributes, read from its two arrays as they are. */
function attributeList(w: Writer, names: readonly string[], values: readonly unknown[], field: number): void {
  for (let i = 0; i < names.length; i++) {
    w.tag(field, 2);
    const kv = w.begin();
    keyValue(w, names[i]!, values[i]);
    w.end(kv);
  }
}

function keyValue(w: Writer, key: string, value: unknown): void {
  w.tag(1, 2);
  w.string(key);
  w.tag(2, 2);
  const any = w.begin();
  anyValue(w, value);
  w.end(any);
}

function anyValue(w: Writer, value: unknown): void {
  switch (typeof value) {
    case "string":
      w.tag(1, 2);
      w.string(value);
      return;
    case "boolean":
      w.tag(2, 0);
      w.varint(value ? 1 : 0);
      return;
    case "number":
      if (Number.isInteger(value) && value >= MIN_INT64 && value < MAX_INT64) {
        w.tag(3, 0);
        w.varint(value);
      } else {
        w.tag(4, 1);
        w.double(value);
      }
      return;
  }
  if (value instanceof Uint8Array) {
    w.tag(7, 2);
    w.bytes(value);
  } else if (Array.isArray(value)) {
    w.tag(5, 2);
    const array = w.begin();
    for (const item of value as AttributeValue[]) {
      w.tag(1, 2);
      const one = w.begin();
      anyValue(w, item);
      w.end(one);
    }
    w.end(array);
  } else if (typeof value === "object" && value !== null) {
    w.tag(6, 2);
    const list = w.begin();
    const record = value as Record<string, unknown>;
    for (const key in record) {
      if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
      w.tag(1, 2);
      const kv = w.begin();
      keyValue(w, key, record[key]);
      w.end(kv);
    }
    w.end(list);
  }
}

function event(w: Writer, e: TimedEvent): void {
  w.tag(1, 1);
  w.time(e.time);
  w.tag(2, 2);
  w.string(e.name);
  if (e.attributes) attributes(w, e.attributes, 3);
  w.tag(4, 0);
  w.varint(e.droppedAttributesCount || 0);
}

const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;

export function span(w: Writer, s: ReadableSpan): void {
  const context = s.spanContext();
  w.tag(1, 2);
  w.hexBytes(context.traceId);
  w.tag(2, 2);
  w.hexBytes(context.spanId);
  const traceState = context.traceState?.serialize();
  if (traceState) {
    w.tag(3, 2);
    w.string(traceState);
  }
  const parent = s.parentSpanContext;
  if (parent?.spanId) {
    w.tag(4, 2);
    w.hexBytes(parent.spanId);
  }
  w.tag(5, 2);
  w.string(s.name);
  // OTLP's kinds start at 1 (0 is unspecified); the API's at 0.
  w.tag(6, 0);
  w.varint(s.kind + 1);
  if (s instanceof RecordedSpan) {
    w.tag(7, 1);
    w.timeAt(s.startedAt);
    w.tag(8, 1);
    w.timeAt(s.endedAt);
    attributeList(w, s.attributeNames, s.attributeValues, 9);
  } else {
    w.tag(7, 1);
    w.time(s.startTime);
    w.tag(8, 1);
    w.time(s.endTime);
    attributes(w, s.attributes, 9);
  }
  w.tag(10, 0);
  w.varint(s.droppedAttributesCount);
  for (const e of s.events) {
    w.tag(11, 2);
    const one = w.begin();
    event(w, e);
    w.end(one);
  }
  w.tag(12, 0);
  w.varint(s.droppedEventsCount);
  // The gateway makes no links (RecordedSpan keeps none); a span from elsewhere with links goes to the SDK's serializer.
  w.tag(14, 0);
  w.varint(s.droppedLinksCount);
  w.tag(15, 2);
  const status = w.begin();
  if (s.status.message) {
    w.tag(2, 2);
    w.string(s.status.message);
  }
  w.tag(3, 0);
  w.varint(s.status.code);
  w.end(status);
  w.tag(16, 5);
  w.fixed32((context.traceFlags & 0xff) | HAS_IS_REMOTE | (parent?.isRemote ? IS_REMOTE : 0));
}

function scope(w: Writer, s: InstrumentationScope): void {
  w.tag(1, 2);
  const start = w.begin();
  w.tag(1, 2);
  w.string(s.name);
  if (s.version) {
    w.tag(2, 2);
    w.string(s.version);
  }
  w.end(start);
}

/** A resource's message with its tag, written once per resource object. */
const resources = new WeakMap<Resource, Buffer>();

function resourceBytes(resource: Resource): Buffer {
  let bytes = resources.get(resource);
  if (!bytes) {
    const w = new Writer();
    w.tag(1, 2);
    const start = w.begin();
    attributes(w, resource.attributes, 1);
    w.tag(2, 0);
    w.varint(0);
    w.end(start);
    bytes = Buffer.from(w.finish());
    resources.set(resource, bytes);
  }
  return bytes;
}

/**
 * An ExportTraceServiceRequest of one resource and one scope around spans already encoded (each with its
 * ScopeSpans.spans tag, as SpanBatch writes them).
 */
export function requestOf(resource: Resource, s: InstrumentationScope, spans: Uint8Array): Uint8Array {
  const w = new Writer(spans.length + 1024);
  w.tag(1, 2);
  const resourceSpans = w.begin();
  w.raw(resourceBytes(resource));
  w.tag(2, 2);
  const scopeSpans = w.begin();
  scope(w, s);
  w.raw(spans);
  if (s.schemaUrl) {
    w.tag(3, 2);
    w.string(s.schemaUrl);
  }
  w.end(scopeSpans);
  if (resource.schemaUrl) {
    w.tag(3, 2);
    w.string(resource.schemaUrl);
  }
  w.end(resourceSpans);
  return w.finish();
}

/** Spans encoded as they end, so a batch waiting for export holds bytes, not span objects. */
export class SpanBatch {
  private readonly w = new Writer(256 * 1024);
  count = 0;

  add(one: ReadableSpan): void {
    this.w.tag(2, 2);
    const start = this.w.begin();
    span(this.w, one);
    this.w.end(start);
    this.count++;
  }

  get bytes(): Uint8Array {
    return this.w.view();
  }
}

/**
 * The request for `spans` of one resource and one scope (the gateway's): what the SDK's serializer writes
 * for them. Spans of several, or with links, are left to that serializer.
 */
export function encodeSpans(spans: readonly ReadableSpan[]): Uint8Array {
  const first = spans[0];
  if (
    !first ||
    spans.some(
      (s) =>
        s.resource !== first.resource ||
        s.instrumentationScope !== first.instrumentationScope ||
        s.links.length > 0 ||
        s.resource.asyncAttributesPending,
    )
  )
    return ProtobufTraceSerializer.serializeRequest(spans as ReadableSpan[])!;
  const batch = new SpanBatch();
  for (const s of spans) batch.add(s);
  return requestOf(first.resource, first.instrumentationScope, batch.bytes);
}
