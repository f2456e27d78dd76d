import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Tracer } from "@opentelemetry/api";
import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { SimpleSpanProcessor, TracerProvider, type SpanExporter } from "@opentelemetry/sdk-trace";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { childrenOf, find, startOtlpReceiver, tree, type OtlpReceiver } from "./otlp-receiver.ts";

const exporters = { json: JsonExporter, protobuf: ProtobufExporter };
const CALLER = { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", traceFlags: 1 };

/**
 * Runs `make` on a tracer whose spans the SDK's own OTLP exporter for `encoding` sends to the receiver,
 * and returns each export's result, so a test sees whether the exporter took the answer for success.
 */
async function exportSpans(encoding: keyof typeof exporters, url: string, make: (tracer: Tracer) => void) {
  const otlp = new exporters[encoding]({ url: `${url}/v1/traces` });
  const results: ExportResult[] = [];
  const recording: SpanExporter = {
    export: (spans, done) =>
      otlp.export(spans, (result) => {
        results.push(result);
        done(result);
      }),
    shutdown: () => otlp.shutdown(),
  };
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": "receiver-test" }),
    spanProcessors: [new SimpleSpanProcessor({ exporter: recording })],
  });
  make(provider.getTracer("receiver-test-scope"));
  await provider.forceFlush();
  await provider.shutdown();
  return results;
}

describe.each(["json", "protobuf"] as const)("the OTLP receiver, fed by the %s exporter", (encoding) => {
  let receiver: OtlpReceiver;
  beforeEach(async () => {
    receiver = await startOtlpReceiver();
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await receiver.close();
  });

  it("reads a parent and its child as sent: ids, kinds, times, attributes of each type, event, link, status", async () => {
    let sent: { parent: string; child: string; trace: string } | undefined;
    const arrived = receiver.waitFor((spans) => spans.length === 2);
    const results = await exportSpans(encoding, receiver.url, (tracer) => {
      const parent = tracer.startSpan("gateway.request", { kind: SpanKind.SERVER, startTime: [1_700_000_000, 5] });
      const child = tracer.startSpan(
        "provider.call",
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "http.route": "/v1/chat/completions",
            "gen_ai.usage.input_tokens": 42,
            "gateway.cost_usd": 0.25,
            "gateway.cached": false,
            "gen_ai.response.finish_reasons": ["stop", "length"],
          },
          links: [{ context: CALLER, attributes: { "link.reason": "batched" } }],
        },
        trace.setSpan(ROOT_CONTEXT, parent),
      );
      child.addEvent("retry", { attempt: 2 });
      child.setStatus({ code: SpanStatusCode.ERROR, message: "upstream answered 502" });
      child.end();
      parent.setStatus({ code: SpanStatusCode.OK });
      parent.end([1_700_000_001, 0]);
      sent = {
        parent: parent.spanContext().spanId,
        child: child.spanContext().spanId,
        trace: parent.spanContext().traceId,
      };
    });

    expect(results.map((r) => r.code)).toEqual([ExportResultCode.SUCCESS, ExportResultCode.SUCCESS]);
    const spans = await arrived;
    const parent = find(spans, "gateway.request");
    const child = find(spans, (s) => s.parentSpanId !== undefined);
    // OTLP numbers kinds one above the API's SpanKind: 2 server, 3 client.
    expect(parent).toMatchObject({
      traceId: sent!.trace,
      spanId: sent!.parent,
      kind: 2,
      startNs: 1_700_000_000_000_000_005n,
      endNs: 1_700_000_001_000_000_000n,
      status: { code: 1 },
      scope: "receiver-test-scope",
    });
    expect(parent.parentSpanId).toBeUndefined();
    expect(parent.resource["service.name"]).toBe("receiver-test");
    expect(child).toMatchObject({
      name: "provider.call",
      traceId: sent!.trace,
      spanId: sent!.child,
      parentSpanId: sent!.parent,
      kind: 3,
      attributes: {
        "http.route": "/v1/chat/completions",
        "gen_ai.usage.input_tokens": 42,
        "gateway.cost_usd": 0.25,
        "gateway.cached": false,
        "gen_ai.response.finish_reasons": ["stop", "length"],
      },
      events: [{ name: "retry", attributes: { attempt: 2 } }],
      links: [{ traceId: CALLER.traceId, spanId: CALLER.spanId, attributes: { "link.reason": "batched" } }],
      status: { code: 2, message: "upstream answered 502" },
    });
    expect(child.endNs).toBeGreaterThan(child.startNs);
    expect(childrenOf(spans, parent)).toEqual([child]);
    expect(tree(spans)).toEqual([{ span: parent, children: [{ span: child, children: [] }] }]);
  });

  it("keeps a gzipped export's text searchable in bodies()", async () => {
    // The exporter reads this when made, as it does in the gateway.
    vi.stubEnv("OTEL_EXPORTER_OTLP_TRACES_COMPRESSION", "gzip");
    const results = await exportSpans(encoding, receiver.url, (tracer) =>
      tracer.startSpan("leaky", { attributes: { prompt: "the lighthouse keeper's marmalade" } }).end(),
    );
    expect(results.map((r) => r.code)).toEqual([ExportResultCode.SUCCESS]);
    expect(receiver.bodies().join("\n")).toContain("the lighthouse keeper's marmalade");
    expect(receiver.spans().map((s) => s.name)).toEqual(["leaky"]);
  });
});

describe("the OTLP receiver", () => {
  let receiver: OtlpReceiver;
  beforeEach(async () => {
    receiver = await startOtlpReceiver();
  });
  afterEach(() => receiver.close());

  const post = (path: string, contentType: string, body: string | Uint8Array<ArrayBuffer>) =>
    fetch(`${receiver.url}${path}`, { method: "POST", headers: { "content-type": contentType }, body });

  it("keeps metric exports apart from spans", async () => {
    const request = { resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: "gateway_requests" }] }] }] };
    const res = await post("/v1/metrics", "application/json", JSON.stringify(request));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(receiver.metrics()).toEqual([request]);
    expect(receiver.spans()).toEqual([]);
  });

  it("refuses a wrong path and a truncated protobuf body, so a misdirected exporter fails visibly", async () => {
    expect((await post("/v1/traces/v1/traces", "application/x-protobuf", new Uint8Array())).status).toBe(404);
    // ResourceSpans (field 1, length-delimited) announcing 16 bytes and carrying 2.
    const truncated = new Uint8Array([0x0a, 0x10, 0x0a, 0x00]);
    expect((await post("/v1/traces", "application/x-protobuf", truncated)).status).toBe(400);
    expect(receiver.spans()).toEqual([]);
  });

  it("waitFor names what it had when the spans awaited never come", async () => {
    await expect(receiver.waitFor((spans) => spans.length > 0, 100)).rejects.toThrow(/within 100 ms \(0 received\)/);
    expect(() => find([], "gateway.request")).toThrow(/no span named gateway.request/);
  });
});
