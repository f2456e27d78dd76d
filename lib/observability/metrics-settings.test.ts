import { describe, expect, it } from "vitest";
import { otlpMetricsSettings } from "./metrics-settings.ts";

describe("OTLP metrics settings from the OTEL_* variables", () => {
  const base = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" };

  it("are off when no endpoint is set, the SDK is disabled or the metrics exporter is none", () => {
    expect(otlpMetricsSettings({})).toBeUndefined();
    expect(otlpMetricsSettings({ ...base, OTEL_SDK_DISABLED: "true" })).toBeUndefined();
    expect(otlpMetricsSettings({ ...base, OTEL_METRICS_EXPORTER: "none" })).toBeUndefined();
  });

  it("send to the base endpoint's /v1/metrics over protobuf every 60 s by default", () => {
    expect(otlpMetricsSettings(base)).toEqual({
      metricsUrl: "http://collector:4318/v1/metrics",
      protocol: "http/protobuf",
      serviceName: "unified-api-gateway",
      intervalMs: 60_000,
      timeoutMs: 30_000,
    });
  });

  it("take the metrics endpoint as given, JSON, the service name and the interval, the timeout within it", () => {
    expect(
      otlpMetricsSettings({
        ...base,
        OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "https://mimir.example/otlp/v1/metrics",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "edge-gateway",
        OTEL_METRIC_EXPORT_INTERVAL: "10000",
      }),
    ).toEqual({
      metricsUrl: "https://mimir.example/otlp/v1/metrics",
      protocol: "http/json",
      serviceName: "edge-gateway",
      intervalMs: 10_000,
      timeoutMs: 10_000,
    });
    expect(
      otlpMetricsSettings({
        ...base,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "http/protobuf",
      })?.protocol,
    ).toBe("http/protobuf");
  });

  it("refuse at start what they cannot read", () => {
    expect(() => otlpMetricsSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(/http\(s\) URL/);
    expect(() => otlpMetricsSettings({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(
      /grpc is not supported/,
    );
    expect(() => otlpMetricsSettings({ ...base, OTEL_METRIC_EXPORT_INTERVAL: "0" })).toThrow(
      /OTEL_METRIC_EXPORT_INTERVAL/,
    );
    expect(() => otlpMetricsSettings({ ...base, OTEL_METRIC_EXPORT_TIMEOUT: "soon" })).toThrow(
      /OTEL_METRIC_EXPORT_TIMEOUT/,
    );
  });
});
