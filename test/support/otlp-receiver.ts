import http from "node:http";
import zlib from "node:zlib";
import { listen } from "./listen.ts";

type Value = string | number | boolean | bigint | Value[] | { [key: string]: Value } | Uint8Array | undefined;

/** A span as the collector received it, whichever encoding carried it. */
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, Value>;
  /** OTLP's StatusCode: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  events: { name: string; attributes: Record<string, Value> }[];
  links: { traceId: string; spanId: string; attributes: Record<string, Value> }[];
  resource: Record<string, Value>;
  scope: string;
};

export type OtlpReceiver = {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  spans(): ReceivedSpan[];
  /** Polls until `ready` holds of the spans received (10 s by default), then returns them. */
  waitFor(ready: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  /**
   * Every export's body, unzipped if it came gzipped (protobuf as latin1 text, where strings stay
   * readable), to search for what must never leave.
   */
  bodies(): string[];
  /** Metric exports as they came: JSON parsed, protobuf as its bytes. */
  metrics(): unknown[];
  close(): Promise<void>;
};

/**
 * An OpenTelemetry collector's OTLP/HTTP receiver in the test process: POST /v1/traces in JSON or
 * protobuf (decoded by the wire format's field numbers, opentelemetry-proto's trace.proto), and
 * /v1/metrics kept as it came; a gzipped body is unzipped first. Answers 200 with an empty export
 * response in the request's encoding, 400 to a body it cannot read and 404 elsewhere, so an exporter
 * sent to the wrong path fails rather than seeming to deliver.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const metrics: unknown[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || (req.url !== "/v1/traces" && req.url !== "/v1/metrics")) {
        res.writeHead(404).end();
        return;
      }
      const json = (req.headers["content-type"] ?? "").includes("json");
      try {
        const raw = Buffer.concat(chunks);
        const body = req.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(raw) : raw;
        bodies.push(body.toString(json ? "utf8" : "latin1"));
        const request = json ? JSON.parse(body.toString("utf8")) : body;
        if (req.url === "/v1/metrics") metrics.push(request);
        else spans.push(...(json ? fromJson(request) : fromProtobuf(body)));
      } catch (err) {
        res.writeHead(400, { "content-type": "text/plain" });
        res.end(String(err));
        return;
      }
      res.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" });
      res.end(json ? "{}" : "");
    });
  });
  const served = await listen(server);
  return {
    url: served.url,
    spans: () => [...spans],
    bodies: () => [...bodies],
    metrics: () => [...metrics],
    async waitFor(ready, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        if (ready([...spans])) return [...spans];
        if (Date.now() > until)
          throw new Error(`the spans awaited did not arrive within ${timeoutMs} ms (${spans.length} received)`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: served.close,
  };
}

/** The spans under `parent`, by parent span id. */
export const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((s) => s.traceId === parent.traceId && s.parentSpanId === parent.spanId);

/** The first span named `match` or satisfying it; throws naming the spans there are when none does. */
export function find(spans: ReceivedSpan[], match: string | ((span: ReceivedSpan) => boolean)): ReceivedSpan {
  const found = spans.find(typeof match === "string" ? (s) => s.name === match : match);
  if (!found)
    throw new Error(
      `no span ${typeof match === "string" ? `named ${match}` : "matched"} among [${spans.map((s) => s.name).join(", ")}]`,
    );
  return found;
}

export type SpanTree = { span: ReceivedSpan; children: SpanTree[] };

/**
 * The spans as trees. A root is a span whose parent was not received: a trace's own root, or a span
 * continuing a caller's trace from its traceparent.
 */
export function tree(spans: ReceivedSpan[]): SpanTree[] {
  const grow = (span: ReceivedSpan): SpanTree => ({ span, children: childrenOf(spans, span).map(grow) });
  const received = new Set(spans.map((s) => `${s.traceId}/${s.spanId}`));
  return spans.filter((s) => !s.parentSpanId || !received.has(`${s.traceId}/${s.parentSpanId}`)).map(grow);
}

// --- OTLP/JSON: ids are hex strings, 64-bit integers decimal strings, values AnyValue objects.

type JsonAny = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonAny[] };
  kvlistValue?: { values?: JsonKv[] };
  bytesValue?: string;
};
type JsonKv = { key: string; value: JsonAny };

function jsonValue(v: JsonAny): Value {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(jsonValue);
  if (v.kvlistValue) return jsonAttributes(v.kvlistValue.values);
  return v.bytesValue;
}

const jsonAttributes = (kvs: JsonKv[] | undefined) =>
  Object.fromEntries((kvs ?? []).map((kv) => [kv.key, jsonValue(kv.value ?? {})]));

type JsonSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: JsonKv[];
  status?: { code?: number; message?: string };
  events?: { name: string; attributes?: JsonKv[] }[];
  links?: { traceId: string; spanId: string; attributes?: JsonKv[] }[];
};

function fromJson(request: {
  resourceSpans?: {
    resource?: { attributes?: JsonKv[] };
    scopeSpans?: { scope?: { name?: string }; spans?: JsonSpan[] }[];
  }[];
}): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        traceId: s.traceId,
        spanId: s.spanId,
        ...(s.parentSpanId && { parentSpanId: s.parentSpanId }),
        name: s.name,
        kind: s.kind,
        startNs: BigInt(s.startTimeUnixNano),
        endNs: BigInt(s.endTimeUnixNano),
        attributes: jsonAttributes(s.attributes),
        status: { code: s.status?.code ?? 0, ...(s.status?.message && { message: s.status.message }) },
        events: (s.events ?? []).map((e) => ({ name: e.name, attributes: jsonAttributes(e.attributes) })),
        links: (s.links ?? []).map((l) => ({
          traceId: l.traceId,
          spanId: l.spanId,
          attributes: jsonAttributes(l.attributes),
        })),
        resource: jsonAttributes(rs.resource?.attributes),
        scope: ss.scope?.name ?? "",
      })),
    ),
  );
}

// --- OTLP/protobuf: the wire format read field by field (varint, fixed64, length-delimited, fixed32).

type Field = { number: number; wire: number; varint?: bigint; bytes?: Uint8Array; fixed?: Buffer };

function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let at = 0;
  // A body cut short fails here rather than reading as fewer or emptier spans.
  const take = (n: number) => {
    if (at + n > buf.length) throw new Error("truncated protobuf");
    return buf.subarray(at, (at += n));
  };
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = take(1)[0]!;
      result |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return result;
      shift += 7n;
    }
  };
  while (at < buf.length) {
    const tag = Number(varint());
    const number = tag >>> 3;
    const wire = tag & 7;
    if (wire === 0) out.push({ number, wire, varint: varint() });
    else if (wire === 1) out.push({ number, wire, fixed: Buffer.from(take(8)) });
    else if (wire === 5) out.push({ number, wire, fixed: Buffer.from(take(4)) });
    else if (wire === 2) out.push({ number, wire, bytes: take(Number(varint())) });
    else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
  return out;
}

const all = (fs: Field[], n: number) => fs.filter((f) => f.number === n);
const one = (fs: Field[], n: number) => fs.find((f) => f.number === n);
const text = (f: Field | undefined) => (f?.bytes ? Buffer.from(f.bytes).toString("utf8") : "");
const hex = (f: Field | undefined) => (f?.bytes ? Buffer.from(f.bytes).toString("hex") : "");

function protoValue(buf: Uint8Array): Value {
  const fs = fields(buf);
  const f = fs[0];
  if (!f) return undefined;
  switch (f.number) {
    case 1:
      return text(f);
    case 2:
      return f.varint === 1n;
    case 3:
      return Number(BigInt.asIntN(64, f.varint!));
    case 4:
      return f.fixed!.readDoubleLE(0);
    case 5:
      return all(fields(f.bytes!), 1).map((v) => protoValue(v.bytes!));
    case 6:
      return protoAttributes(all(fields(f.bytes!), 1));
    default:
      return f.bytes;
  }
}

function protoAttributes(kvs: Field[]): Record<string, Value> {
  return Object.fromEntries(
    kvs.map((kv) => {
      const fs = fields(kv.bytes!);
      const value = one(fs, 2);
      return [text(one(fs, 1)), value ? protoValue(value.bytes!) : undefined];
    }),
  );
}

function fromProtobuf(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of all(fields(body), 1)) {
    const rsf = fields(rs.bytes!);
    const resourceField = one(rsf, 1);
    const resource = resourceField ? protoAttributes(all(fields(resourceField.bytes!), 1)) : {};
    for (const ss of all(rsf, 2)) {
      const ssf = fields(ss.bytes!);
      const scopeField = one(ssf, 1);
      const scope = scopeField ? text(one(fields(scopeField.bytes!), 1)) : "";
      for (const sp of all(ssf, 2)) {
        const f = fields(sp.bytes!);
        const statusField = one(f, 15);
        const status = statusField ? fields(statusField.bytes!) : [];
        const parent = hex(one(f, 4));
        spans.push({
          traceId: hex(one(f, 1)),
          spanId: hex(one(f, 2)),
          ...(parent && { parentSpanId: parent }),
          name: text(one(f, 5)),
          kind: Number(one(f, 6)?.varint ?? 0n),
          startNs: one(f, 7)?.fixed?.readBigUInt64LE(0) ?? 0n,
          endNs: one(f, 8)?.fixed?.readBigUInt64LE(0) ?? 0n,
          attributes: protoAttributes(all(f, 9)),
          status: {
            code: Number(one(status, 3)?.varint ?? 0n),
            ...(one(status, 2) && { message: text(one(status, 2)) }),
          },
          events: all(f, 11).map((e) => {
            const ef = fields(e.bytes!);
            return { name: text(one(ef, 2)), attributes: protoAttributes(all(ef, 3)) };
          }),
          links: all(f, 13).map((l) => {
            const lf = fields(l.bytes!);
            return { traceId: hex(one(lf, 1)), spanId: hex(one(lf, 2)), attributes: protoAttributes(all(lf, 4)) };
          }),
          resource,
          scope,
        });
      }
    }
  }
  return spans;
}
