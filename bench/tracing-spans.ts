// The CPU a traced completion's spans cost in-process, without the HTTP around it: the spans the gateway
// makes for a relayed completion (the request, the limit check, the model attempt held open until its
// usage, the traceparent sent on), ended, then encoded as the OTLP protobuf exporter encodes them. One
// process, no sockets, so unlike bench/tracing.ts it barely moves with the machine's other load.
//
// Two ways, alternating in the same run: the gateway's (RecordedSpan, encodeSpans) and the SDK's own
// tracer and protobuf serializer driven the same way, which is what the gateway used before
// (docs/adr/0102): the before and after of that change, measured side by side.
import { ROOT_CONTEXT, SpanKind, trace, type Attributes, type Span } from "@opentelemetry/api";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { BatchSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace";
import { attemptAttributes } from "../lib/observability/genai.ts";
import { encodeSpans } from "../lib/observability/otlp-protobuf.ts";
import { Tracing } from "../lib/observability/tracing.ts";
import { median, report, spread } from "./results.ts";

const ROUNDS = Number(process.env.BENCH_REPEAT ?? 5);
const COMPLETIONS = 50_000;
const BATCH = 3 * 512;

function keeper(): { exporter: SpanExporter; kept: ReadableSpan[] } {
  const kept: ReadableSpan[] = [];
  const exporter: SpanExporter = {
    export(spans, done) {
      if (kept.length < BATCH) kept.push(...spans);
      done({ code: 0 });
    },
    shutdown: async () => {},
  };
  return { exporter, kept };
}

const requestAttributes = (): Attributes => ({
  "http.request.method": "POST",
  "gateway.request_id": crypto.randomUUID(),
});
const attempt = attemptAttributes("chat", "xai", "grok-4-fast", "xai/grok-4-fast", 0);
const usage = { model: "grok-4-fast", promptTokens: 8, completionTokens: 2 };

/** The gateway's way: its Tracing, as the pipeline and the router drive it. */
function gatewayWay() {
  const { exporter, kept } = keeper();
  const tracing = new Tracing(
    {
      tracesUrl: "http://127.0.0.1:9/v1/traces",
      protocol: "http/protobuf",
      serviceName: "bench",
      ratio: 1,
      slowMs: 2_000,
      captureContent: false,
      batch: { scheduledDelayMillis: 1 },
    },
    exporter,
  );
  return {
    name: "gateway",
    kept,
    flush: () => tracing.flush(),
    encode: encodeSpans,
    completion(): string {
      const root = tracing.root("POST", requestAttributes());
      root.span.updateName("POST /v1/chat/completions");
      root.span.setAttribute("http.route", "/v1/chat/completions");
      root.span.setAttribute("gateway.key_id", "key_624432e4deed409b8b17e6d9fd433538");
      root.child("gateway.limits", { "gateway.limits.backend": "memory" }).end();
      const call = root.child("chat grok-4-fast", attempt, SpanKind.CLIENT);
      const sent = call.traceparent;
      root.hold(call);
      root.span.setAttribute("http.response.status_code", 200);
      root.settle(usage);
      root.end();
      return sent;
    },
  };
}

/** The SDK's way: its TracerProvider and serializer, the same spans and attributes. */
function sdkWay() {
  const { exporter, kept } = keeper();
  const provider = new TracerProvider({
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 1 })],
  });
  const tracer = provider.getTracer("unified-api-gateway");
  return {
    name: "SDK",
    kept,
    flush: () => provider.forceFlush(),
    encode: (spans: readonly ReadableSpan[]) => ProtobufTraceSerializer.serializeRequest(spans as ReadableSpan[])!,
    completion(): string {
      const root = tracer.startSpan("POST", { kind: SpanKind.SERVER, attributes: requestAttributes() });
      root.updateName("POST /v1/chat/completions");
      root.setAttribute("http.route", "/v1/chat/completions");
      root.setAttribute("gateway.key_id", "key_624432e4deed409b8b17e6d9fd433538");
      const parent = trace.setSpan(ROOT_CONTEXT, root);
      tracer.startSpan("gateway.limits", { attributes: { "gateway.limits.backend": "memory" } }, parent).end();
      const call: Span = tracer.startSpan("chat grok-4-fast", { kind: SpanKind.CLIENT, attributes: attempt }, parent);
      const { traceId, spanId, traceFlags } = call.spanContext();
      const sent = `00-${traceId}-${spanId}-0${traceFlags & 1}`;
      root.setAttribute("http.response.status_code", 200);
      call.setAttributes({ "gen_ai.usage.input_tokens": 8, "gen_ai.usage.output_tokens": 2 }).end();
      root.end();
      return sent;
    },
  };
}

async function measure(way: ReturnType<typeof gatewayWay>): Promise<{ make: number; encode: number }> {
  let started = performance.now();
  for (let i = 0; i < COMPLETIONS; i++) way.completion();
  const make = ((performance.now() - started) * 1000) / COMPLETIONS;
  await way.flush();
  const batch = way.kept.slice(0, BATCH);
  started = performance.now();
  for (let i = 0; i < 50; i++) way.encode(batch);
  // Per completion: the batch holds 512 completions' three spans.
  const encode = ((performance.now() - started) * 1000) / 50 / 512;
  return { make, encode };
}

async function main() {
  const ways = [gatewayWay(), sdkWay()];
  const totals: Record<string, number[]> = { gateway: [], SDK: [] };
  const parts: Record<string, string[]> = { gateway: [], SDK: [] };
  // Round 0 warms the JIT; the order alternates so neither always runs second.
  for (let round = 0; round <= ROUNDS; round++) {
    for (const way of round % 2 ? ways : [...ways].reverse()) {
      const { make, encode } = await measure(way);
      if (round === 0) continue;
      totals[way.name]!.push(make + encode);
      parts[way.name]!.push(`${make.toFixed(1)}+${encode.toFixed(1)}`);
    }
  }
  const ours = median(totals.gateway!);
  const sdk = median(totals.SDK!);
  report({
    bench: "tracing",
    measure: "CPU of a traced completion's three spans in-process: made, ended and OTLP-protobuf encoded",
    value: Number(ours.toFixed(1)),
    unit: "µs",
    target: "<= 25",
    note: `rounds ${spread(totals.gateway!, 1)} µs (making+encoding: ${parts.gateway!.join(", ")}); the SDK's tracer and serializer in the same run: ${sdk.toFixed(1)} µs (${parts.SDK!.join(", ")}), ${(sdk / ours).toFixed(1)}× the gateway's`,
  });
}

await main();
