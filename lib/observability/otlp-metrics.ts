import { ValueType, type Attributes, type HrTime } from "@opentelemetry/api";
import { hrTime, millisToHrTime } from "@opentelemetry/core";
import { OTLPMetricExporter as JsonExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtobufExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { detectResources, emptyResource, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type CollectionResult,
  type DataPoint,
  type Histogram,
  type MetricData,
  type MetricProducer,
  type PushMetricExporter,
  type ScopeMetrics,
} from "@opentelemetry/sdk-metrics";
import type { Registry } from "prom-client";
import type { OtlpMetricsSettings } from "./metrics-settings.ts";
import { GATEWAY_VERSION } from "../version.ts";

/** A metric as prom-client's registry gives it (getMetricsAsJSON), with its type as the string it is. */
export type PromMetric = {
  name: string;
  help: string;
  type: string;
  values: { value: number; labels: Record<string, string | number | undefined>; metricName?: string }[];
};

// Every series is cumulative since the process started: prom-client's counters count from then.
const PROCESS_START = millisToHrTime(performance.timeOrigin);
const SCOPE = { name: "unified-api-gateway/prometheus" };

/**
 * prom-client's metrics as OpenTelemetry metric data, one scope: a counter becomes a monotonic
 * cumulative Sum, a gauge a Gauge, a histogram a cumulative Histogram with the same bucket bounds
 * (prom-client's cumulative `le` counts turned into per-bucket counts, +Inf the last). Names, help
 * and labels stay as /metrics shows them. Summaries (none registered here) and NaN values are left out.
 */
export function toScopeMetrics(metrics: readonly PromMetric[], endTime: HrTime = hrTime()): ScopeMetrics {
  const out: MetricData[] = [];
  for (const metric of metrics) {
    const descriptor = { name: metric.name, description: metric.help, unit: "", valueType: ValueType.DOUBLE };
    const point = <T>(labels: PromMetric["values"][number]["labels"], value: T): DataPoint<T> => ({
      startTime: PROCESS_START,
      endTime,
      attributes: attributesOf(labels),
      value,
    });
    const singles = metric.values.filter((v) => !Number.isNaN(v.value)).map((v) => point(v.labels, v.value));
    if (metric.type === "counter" && singles.length)
      out.push({
        descriptor,
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.SUM,
        isMonotonic: true,
        dataPoints: singles,
      });
    else if (metric.type === "gauge" && singles.length)
      out.push({
        descriptor,
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.GAUGE,
        dataPoints: singles,
      });
    else if (metric.type === "histogram") {
      const dataPoints = histogramsOf(metric).map(({ labels, value }) => point(labels, value));
      if (dataPoints.length)
        out.push({
          descriptor,
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.HISTOGRAM,
          dataPoints,
        });
    }
  }
  return { scope: SCOPE, metrics: out };
}

type Labels = PromMetric["values"][number]["labels"];

/** A histogram's samples (`_bucket` by `le`, `_sum`, `_count`) grouped by their other labels. */
function histogramsOf(metric: PromMetric): { labels: Labels; value: Histogram }[] {
  const series = new Map<string, { labels: Labels; bounds: Map<number, number>; sum: number; count: number }>();
  for (const sample of metric.values) {
    const { le, ...labels } = sample.labels;
    const id = JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
    let s = series.get(id);
    if (!s) series.set(id, (s = { labels, bounds: new Map(), sum: 0, count: 0 }));
    const suffix = sample.metricName?.slice(metric.name.length);
    if (suffix === "_sum") s.sum = sample.value;
    else if (suffix === "_count") s.count = sample.value;
    else if (suffix === "_bucket" && le !== undefined && le !== "+Inf") s.bounds.set(Number(le), sample.value);
  }
  return [...series.values()].map(({ labels, bounds, sum, count }) => {
    const boundaries = [...bounds.keys()].sort((a, b) => a - b);
    let below = 0;
    const counts = boundaries.map((b) => {
      const cumulative = bounds.get(b)!;
      const n = cumulative - below;
      below = cumulative;
      return n;
    });
    counts.push(count - below);
    return { labels, value: { buckets: { boundaries, counts }, sum, count } };
  });
}

function attributesOf(labels: Labels): Attributes {
  const attributes: Attributes = {};
  for (const [name, value] of Object.entries(labels)) if (value !== undefined) attributes[name] = String(value);
  return attributes;
}

/** Reads the registry at each export: the same series, at the same moment, as a scrape of /metrics. */
class PrometheusProducer implements MetricProducer {
  constructor(private readonly registry: Registry) {}

  async collect(): Promise<CollectionResult> {
    const metrics = (await this.registry.getMetricsAsJSON()) as unknown as PromMetric[];
    return { resourceMetrics: { resource: emptyResource(), scopeMetrics: [toScopeMetrics(metrics)] }, errors: [] };
  }
}

/**
 * Exports a runtime's /metrics registry over OTLP/HTTP (JSON or protobuf) every interval, for a
 * collector that takes pushes rather than scraping (and for `npm run worker`, which serves no
 * /metrics). The registry is read only when an export runs; nothing registers globally, so two
 * runtimes in one test process keep apart.
 */
export class OtlpMetrics {
  private readonly provider: MeterProvider;

  constructor(registry: Registry, settings: OtlpMetricsSettings, exporter?: PushMetricExporter) {
    const out =
      exporter ??
      (settings.protocol === "http/json"
        ? new JsonExporter({ url: settings.metricsUrl })
        : new ProtobufExporter({ url: settings.metricsUrl }));
    const resource = resourceFromAttributes({
      "service.name": settings.serviceName,
      "service.version": GATEWAY_VERSION,
    }).merge(detectResources({ detectors: [envDetector] }));
    const reader = new PeriodicExportingMetricReader({
      exporter: out,
      exportIntervalMillis: settings.intervalMs,
      exportTimeoutMillis: settings.timeoutMs,
      metricProducers: [new PrometheusProducer(registry)],
    });
    // The provider has no instruments of its own: it binds the reader and gives the exports their resource.
    this.provider = new MeterProvider({ resource, readers: [reader] });
  }

  /** Exports now (a test, a worker finishing). */
  flush(): Promise<void> {
    return this.provider.forceFlush();
  }

  /** Exports what the registry holds one last time and stops the timer: part of a draining shutdown. */
  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}
