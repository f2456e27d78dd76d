import { describe, expect, it } from "vitest";
import { tracingSettings } from "./settings.ts";

describe("tracing settings from the OTEL_* variables", () => {
  it("are off when no endpoint is set, the SDK is disabled or the exporter is none", () => {
    expect(tracingSettings({})).toBeUndefined();
    expect(
      tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" }),
    ).toBeUndefined();
    expect(
      tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "none" }),
    ).toBeUndefined();
  });

  it("send to the base endpoint's /v1/traces over protobuf by default, keeping every trace", () => {
    const settings = tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" });
    expect(settings).toMatchObject({
      tracesUrl: "http://collector:4318/v1/traces",
      protocol: "http/protobuf",
      serviceName: "unified-api-gateway",
      ratio: 1,
      captureContent: false,
      batch: {},
    });
  });

  it("take the traces endpoint as given, JSON, the service name, the ratio and the batch delay", () => {
    const settings = tracingSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://ignored:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://tempo.example/otlp/v1/traces",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "edge-gateway",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
      OTEL_BSP_SCHEDULE_DELAY: "200",
      OTEL_GENAI_CAPTURE_CONTENT: "true",
    });
    expect(settings).toMatchObject({
      tracesUrl: "https://tempo.example/otlp/v1/traces",
      protocol: "http/json",
      serviceName: "edge-gateway",
      ratio: 0.25,
      captureContent: true,
      batch: { scheduledDelayMillis: 200 },
    });
  });

  it("read always_off as a ratio of 0 (errors and slow traces are still kept)", () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_TRACES_SAMPLER: "always_off" })?.ratio).toBe(
      0,
    );
  });

  it("refuse what cannot be read, naming the variable", () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" };
    expect(() => tracingSettings({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL/,
    );
    expect(() => tracingSettings({ ...base, OTEL_TRACES_SAMPLER_ARG: "1.5" })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => tracingSettings({ ...base, OTEL_TRACES_SAMPLER: "jaeger_remote" })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => tracingSettings({ ...base, OTEL_BSP_SCHEDULE_DELAY: "soon" })).toThrow(/OTEL_BSP_SCHEDULE_DELAY/);
    expect(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(/http\(s\) URL/);
  });
});
