import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { describe, expect, it } from "vitest";
import { memoryTracing } from "../../test/support/memory-tracing.ts";
import { encodeSpans } from "./otlp-protobuf.ts";

describe("encodeSpans", () => {
  it("writes the same bytes as the SDK's protobuf serializer, for every kind of value a span holds", async () => {
    const t = memoryTracing();
    const caller = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const root = t.tracing.root("POST /v1/chat/completions", { "http.request.method": "POST" }, (name) =>
      name === "traceparent" ? caller : undefined,
    );
    root.set({
      "gateway.key_id": "key_0123456789abcdef",
      "http.response.status_code": 200,
      negative: -42,
      huge: 2 ** 40,
      ratio: 0.25,
      flag: true,
      list: ["a", "b"],
      numbers: [1, 2.5],
      accents: "réponse — ✓ 日本",
      long: "x".repeat(300),
      longer: "y".repeat(20_000),
    });
    const attempt = root.child("chat grok-4", { "gen_ai.request.model": "grok-4" }, SpanKind.CLIENT);
    attempt.event("first_byte").event("retry", { "gateway.retry_reason": "status 503" });
    attempt.fail("503", "upstream answered 503 ".repeat(20));
    attempt.end();
    root.child("gateway.limits").end();
    root.end();
    const spans = await t.spans();
    expect(spans).toHaveLength(3);
    const ours = encodeSpans(spans);
    const sdk = ProtobufTraceSerializer.serializeRequest(spans)!;
    expect(ours.length).toBeGreaterThan(20_000);
    expect(Buffer.from(ours).equals(Buffer.from(sdk))).toBe(true);
    expect(spans.find((s) => s.name === "chat grok-4")!.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("encodes a batch of many spans, a buffer's growth included, as the SDK does", async () => {
    const t = memoryTracing();
    for (let i = 0; i < 600; i++) {
      const root = t.tracing.root(`GET /v1/key ${i}`, { "gateway.request_id": `req_${i}`, body: "z".repeat(i * 3) });
      root.child("gateway.key_lookup").end();
      root.end();
    }
    const spans = await t.spans();
    expect(spans).toHaveLength(1200);
    expect(Buffer.from(encodeSpans(spans)).equals(Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!))).toBe(
      true,
    );
    // Encoding again reuses the writer: the second request must not carry the first's bytes.
    const few = spans.slice(0, 2);
    expect(Buffer.from(encodeSpans(few)).equals(Buffer.from(ProtobufTraceSerializer.serializeRequest(few)!))).toBe(
      true,
    );
  });
});
