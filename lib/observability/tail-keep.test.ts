import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import type { TracingSettings } from "./settings.ts";
import { Tracing } from "./tracing.ts";

function tracing(ratio: number, slowMs = 60_000) {
  const exporter = new InMemorySpanExporter();
  const settings: TracingSettings = {
    tracesUrl: "http://127.0.0.1:9/v1/traces",
    protocol: "http/json",
    serviceName: "test",
    ratio,
    slowMs,
    captureContent: false,
    batch: { scheduledDelayMillis: 1 },
  };
  return { tracing: new Tracing(settings, exporter), exporter };
}

const names = (exporter: InMemorySpanExporter) =>
  exporter
    .getFinishedSpans()
    .map((s) => s.name)
    .sort();

describe("sampling: the ratio chooses traces, errors and slow ones are kept regardless", () => {
  it("exports every span of a sampled trace", async () => {
    const { tracing: t, exporter } = tracing(1);
    const root = t.root("GET /v1/key", {});
    root.child("gateway.limits").end();
    root.end();
    await t.flush();
    expect(names(exporter)).toEqual(["GET /v1/key", "gateway.limits"]);
  });

  it("drops a healthy trace the ratio left out, children included", async () => {
    const { tracing: t, exporter } = tracing(0);
    const root = t.root("GET /v1/key", {});
    root.child("gateway.limits").end();
    root.end();
    await t.flush();
    expect(names(exporter)).toEqual([]);
  });

  it("keeps a left-out trace whose attempt failed, whole and marked sampled", async () => {
    const { tracing: t, exporter } = tracing(0);
    const root = t.root("POST /v1/chat/completions", {});
    root.child("chat gpt-4.1", {}, SpanKind.CLIENT).fail("server_error").end();
    root.child("chat gpt-4.1", {}, SpanKind.CLIENT).end();
    root.end();
    await t.flush();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(["POST /v1/chat/completions", "chat gpt-4.1", "chat gpt-4.1"]);
    expect(spans.every((s) => (s.spanContext().traceFlags & 1) === 1)).toBe(true);
    expect(spans.filter((s) => s.status.code === SpanStatusCode.ERROR)).toHaveLength(1);
  });

  it("keeps a left-out trace whose root took longer than the slow threshold", async () => {
    const { tracing: t, exporter } = tracing(0, 0);
    const root = t.root("POST /v1/research", {});
    root.end();
    await t.flush();
    expect(names(exporter)).toEqual(["POST /v1/research"]);
  });

  it("continues a caller's sampled traceparent even at a ratio of 0", async () => {
    const { tracing: t, exporter } = tracing(0);
    const parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const root = t.root("GET /v1/key", {}, (name) => (name === "traceparent" ? parent : undefined));
    expect(root.traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(root.traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
    root.end();
    await t.flush();
    expect(exporter.getFinishedSpans()[0]?.parentSpanContext?.spanId).toBe("b7ad6b7169203331");
  });

  it("starts a new trace when the caller's traceparent is malformed", () => {
    const { tracing: t } = tracing(1);
    const root = t.root("GET /v1/key", {}, (name) => (name === "traceparent" ? "00-zz-not-a-parent" : undefined));
    expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
    root.end();
  });
});
