// The CPU a traced completion's spans cost in-process, without the HTTP around it: the spans the gateway
// makes for a relayed completion (the request, the limit check, the model attempt held open until its
// usage, the traceparent sent on), ended, then encoded as the OTLP protobuf exporter encodes them. One
// process, no sockets, so unlike bench/tracing.ts it barely moves with the machine's other load.
import { SpanKind } from "@opentelemetry/api";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import { attemptAttributes } from "../lib/observability/genai.ts";
import { Tracing } from "../lib/observability/tracing.ts";

const ROUNDS = Number(process.env.BENCH_REPEAT ?? 3);
const COMPLETIONS = 50_000;

const kept: ReadableSpan[] = [];
const exporter: SpanExporter = {
  export(spans, done) {
    if (kept.length < 3 * 512) kept.push(...spans);
    done({ code: 0 });
  },
  shutdown: async () => {},
};
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

function completion(): string {
  const root = tracing.root("POST", { "http.request.method": "POST", "gateway.request_id": crypto.randomUUID() });
  root.span.updateName("POST /v1/chat/completions");
  root.span.setAttribute("http.route", "/v1/chat/completions");
  root.span.setAttribute("gateway.key_id", "key_624432e4deed409b8b17e6d9fd433538");
  root.child("gateway.limits", { "gateway.limits.backend": "memory" }).end();
  const attempt = root.child(
    "chat grok-4-fast",
    attemptAttributes("chat", "xai", "grok-4-fast", "xai/grok-4-fast", 0),
    SpanKind.CLIENT,
  );
  const sent = attempt.traceparent;
  root.hold(attempt);
  root.span.setAttribute("http.response.status_code", 200);
  root.settle({ model: "grok-4-fast", promptTokens: 8, completionTokens: 2 });
  root.end();
  return sent;
}

async function main() {
  const created: number[] = [];
  const encoded: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    let started = performance.now();
    for (let i = 0; i < COMPLETIONS; i++) completion();
    const createUs = ((performance.now() - started) * 1000) / COMPLETIONS;
    await tracing.flush();
    const batch = kept.slice(0, 3 * 512);
    started = performance.now();
    for (let i = 0; i < 50; i++) ProtobufTraceSerializer.serializeRequest(batch);
    const encodeUs = ((performance.now() - started) * 1000) / 50 / 512;
    // Round 0 warms the JIT.
    if (round > 0) {
      created.push(createUs);
      encoded.push(encodeUs);
    }
  }
  const total = created.map((c, i) => c + encoded[i]!);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const { report } = await import("./results.ts");
  report({
    bench: "tracing",
    measure: "CPU of a traced completion's three spans in-process: made, ended and OTLP-protobuf encoded",
    value: Number(median(total).toFixed(1)),
    unit: "µs",
    target: "<= 25",
    note: `rounds ${total.map((t) => t.toFixed(1)).join(", ")} µs; of which making and ending ${created.map((t) => t.toFixed(1)).join(", ")} µs, encoding ${encoded.map((t) => t.toFixed(1)).join(", ")} µs`,
  });
  await tracing.shutdown();
}

await main();
