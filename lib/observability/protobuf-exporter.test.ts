import { ExportResultCode } from "@opentelemetry/core";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { memoryTracing } from "../../test/support/memory-tracing.ts";
import { EncodingSpanProcessor } from "./protobuf-exporter.ts";

/** A transport that keeps what it is given; `answer` false leaves exports unanswered (a collector that hangs). */
function transport(answer = true) {
  const sent: { body: Uint8Array; count: number }[] = [];
  return {
    sent,
    export(encoded: { body: Uint8Array; count: number }, done: (r: { code: ExportResultCode }) => void) {
      sent.push(encoded);
      if (answer) queueMicrotask(() => done({ code: ExportResultCode.SUCCESS }));
    },
    shutdown: async () => {},
  };
}

async function spans(n: number): Promise<ReadableSpan[]> {
  const t = memoryTracing();
  for (let i = 0; i < n; i++) {
    const root = t.tracing.root(`POST /v1/chat/completions`, { "gateway.request_id": `req_${i}` });
    root.child("chat grok-4", { "gen_ai.request.model": "grok-4" }).event("first_byte").end();
    root.end();
  }
  return t.spans();
}

describe("EncodingSpanProcessor", () => {
  it("sends what the SDK's protobuf exporter would send for the same spans", async () => {
    const all = await spans(3);
    const out = transport();
    const p = new EncodingSpanProcessor(out, all[0]!.resource, all[0]!.instrumentationScope);
    for (const s of all) p.onEnd(s);
    expect(out.sent).toHaveLength(0);
    await p.forceFlush();
    expect(out.sent).toHaveLength(1);
    expect(out.sent[0]!.count).toBe(6);
    expect(Buffer.from(out.sent[0]!.body).equals(Buffer.from(ProtobufTraceSerializer.serializeRequest(all)!))).toBe(
      true,
    );
  });

  it("sends a batch as soon as it is full, and keeps to its queue's size while the collector does not answer", async () => {
    const all = await spans(20);
    const out = transport(false);
    const p = new EncodingSpanProcessor(out, all[0]!.resource, all[0]!.instrumentationScope, {
      maxExportBatchSize: 10,
      maxQueueSize: 25,
      scheduledDelayMillis: 60_000,
    });
    for (const s of all) p.onEnd(s);
    // 25 queued (two full batches sent, 5 waiting), the other 15 dropped rather than held.
    expect(out.sent.map((e) => e.count)).toEqual([10, 10]);
    expect(p.dropped).toBe(15);
  });

  it("sends a batch that is not full once its delay has passed, and sends nothing unsampled", async () => {
    const all = await spans(1);
    const out = transport();
    const p = new EncodingSpanProcessor(out, all[0]!.resource, all[0]!.instrumentationScope, {
      scheduledDelayMillis: 10,
    });
    const unsampled = Object.create(all[0]!, {
      spanContext: { value: () => ({ ...all[0]!.spanContext(), traceFlags: 0 }) },
    }) as ReadableSpan;
    p.onEnd(unsampled);
    p.onEnd(all[0]!);
    await expect.poll(() => out.sent.length, { timeout: 10_000 }).toBe(1);
    expect(out.sent[0]!.count).toBe(1);
    await p.shutdown();
    p.onEnd(all[1]!);
    await p.forceFlush();
    expect(out.sent).toHaveLength(1);
  });
});
