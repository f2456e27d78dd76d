import { AggregationTemporality, DataPointType, InMemoryMetricExporter } from "@opentelemetry/sdk-metrics";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { RequestMetrics } from "../gateway/runtime/request-metrics.ts";
import { OtlpMetrics, toScopeMetrics, type PromMetric } from "./otlp-metrics.ts";

/** A registry with one metric of each kind the gateway registers, with values. */
function registryWithValues(): Registry {
  const registry = new Registry();
  const registers = [registry];
  new Counter({ name: "tokens_total", help: "Tokens", labelNames: ["provider", "direction"], registers }).inc(
    { provider: "openai", direction: "input" },
    12,
  );
  new Gauge({ name: "queue_depth", help: "Depth", labelNames: ["state"], registers }).set({ state: "waiting" }, 3);
  const h = new Histogram({
    name: "task_seconds",
    help: "Durations",
    labelNames: ["kind"],
    buckets: [1, 5],
    registers,
  });
  for (const s of [0.5, 2, 3, 9]) h.observe({ kind: "batch" }, s);
  new Counter({ name: "never_counted_total", help: "Nothing yet", labelNames: ["x"], registers });
  return registry;
}

const json = async (registry: Registry) => (await registry.getMetricsAsJSON()) as unknown as PromMetric[];

describe("toScopeMetrics", () => {
  it("turns counters into monotonic cumulative sums and gauges into gauges, labels into attributes", async () => {
    const { metrics } = toScopeMetrics(await json(registryWithValues()));
    const byName = new Map(metrics.map((m) => [m.descriptor.name, m]));
    expect(byName.get("tokens_total")).toMatchObject({
      descriptor: { name: "tokens_total", description: "Tokens" },
      dataPointType: DataPointType.SUM,
      aggregationTemporality: AggregationTemporality.CUMULATIVE,
      isMonotonic: true,
      dataPoints: [{ attributes: { provider: "openai", direction: "input" }, value: 12 }],
    });
    expect(byName.get("queue_depth")).toMatchObject({
      dataPointType: DataPointType.GAUGE,
      dataPoints: [{ attributes: { state: "waiting" }, value: 3 }],
    });
    // A metric with no series yet is left out rather than sent empty.
    expect(byName.has("never_counted_total")).toBe(false);
  });

  it("turns a histogram's cumulative le counts into per-bucket counts with the same bounds", async () => {
    const { metrics } = toScopeMetrics(await json(registryWithValues()));
    expect(metrics.find((m) => m.descriptor.name === "task_seconds")).toMatchObject({
      dataPointType: DataPointType.HISTOGRAM,
      aggregationTemporality: AggregationTemporality.CUMULATIVE,
      dataPoints: [
        {
          attributes: { kind: "batch" },
          value: { buckets: { boundaries: [1, 5], counts: [1, 2, 1] }, sum: 14.5, count: 4 },
        },
      ],
    });
  });

  it("reads the request histogram the gateway renders itself, one point per method and route", async () => {
    const registry = new Registry();
    const requests = new RequestMetrics();
    requests.register(registry);
    requests.record("GET", "/v1/a", 200, 0.002);
    requests.record("GET", "/v1/a", 200, 40);
    requests.record("POST", "/v1/b", 201, 0.2);
    const { metrics } = toScopeMetrics(await json(registry));
    const durations = metrics.find((m) => m.descriptor.name === "gateway_http_request_duration_seconds")!;
    expect(durations.dataPoints).toHaveLength(2);
    const a = durations.dataPoints.find((p) => p.attributes.route === "/v1/a")!.value as {
      buckets: { boundaries: number[]; counts: number[] };
      count: number;
    };
    expect(a.count).toBe(2);
    expect(a.buckets.counts.reduce((n, c) => n + c, 0)).toBe(2);
    // 40 s is past the last bound (30 s): counted in the overflow bucket.
    expect(a.buckets.counts.at(-1)).toBe(1);
    expect(metrics.find((m) => m.descriptor.name === "gateway_http_requests_total")?.dataPoints).toHaveLength(2);
  });
});

describe("OtlpMetrics", () => {
  it("exports the registry's series with the service's resource on flush", async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const registry = registryWithValues();
    const otlp = new OtlpMetrics(
      registry,
      {
        metricsUrl: "http://unused/v1/metrics",
        protocol: "http/json",
        serviceName: "edge",
        intervalMs: 60_000,
        timeoutMs: 1_000,
      },
      exporter,
    );
    try {
      await otlp.flush();
      const [exported] = exporter.getMetrics();
      expect(exported!.resource.attributes["service.name"]).toBe("edge");
      const names = exported!.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.descriptor.name));
      expect(names).toEqual(expect.arrayContaining(["tokens_total", "queue_depth", "task_seconds"]));
    } finally {
      await otlp.shutdown();
    }
  });
});
