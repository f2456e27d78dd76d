import type { Registry } from "prom-client";

/** Upper bounds (s) of the request duration histogram's buckets; one more counts everything slower. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

type RouteSeries = { statuses: Map<number, number>; buckets: number[]; sum: number; count: number };
type Sample = { labels: Record<string, string | number>; value: number; metricName?: string };

/**
 * Requests by route template and status, and their durations, counted in plain maps: prom-client's
 * Counter and Histogram hash their label set on every `inc`/`observe` (and `labels()` children hash
 * again), which was a tenth of a keyless request's CPU. The series are rendered for /metrics at
 * scrape time, in prom-client's own text format, through the runtime's registry.
 */
export class RequestMetrics {
  /** method → route template → series. */
  private readonly series = new Map<string, Map<string, RouteSeries>>();

  record(method: string, route: string, status: number, seconds: number): void {
    let routes = this.series.get(method);
    if (!routes) this.series.set(method, (routes = new Map()));
    let s = routes.get(route);
    if (!s) {
      s = { statuses: new Map(), buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
      routes.set(route, s);
    }
    s.statuses.set(status, (s.statuses.get(status) ?? 0) + 1);
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i++;
    s.buckets[i]! += 1;
    s.sum += seconds;
    s.count += 1;
  }

  /** Requests counted for one method, route and status (for tests and diagnostics). */
  count(method: string, route: string, status: number): number {
    return this.series.get(method)?.get(route)?.statuses.get(status) ?? 0;
  }

  /** Adds gateway_http_requests_total and gateway_http_request_duration_seconds to the registry. */
  register(registry: Registry): void {
    const each = (fn: (method: string, route: string, s: RouteSeries) => void) => {
      for (const [method, routes] of this.series) for (const [route, s] of routes) fn(method, route, s);
    };
    registry.registerMetric(
      scraped("gateway_http_requests_total", "HTTP requests served, by route template and status", "counter", () => {
        const values: Sample[] = [];
        each((method, route, s) => {
          for (const [status, n] of s.statuses) values.push({ labels: { method, route, status }, value: n });
        });
        return values;
      }),
    );
    const name = "gateway_http_request_duration_seconds";
    registry.registerMetric(
      scraped(name, "Time to produce the response head, by route template", "histogram", () => {
        const values: Sample[] = [];
        each((method, route, s) => {
          let cumulative = 0;
          DURATION_BUCKETS.forEach((le, i) => {
            cumulative += s.buckets[i]!;
            values.push({ metricName: `${name}_bucket`, labels: { le, method, route }, value: cumulative });
          });
          values.push({ metricName: `${name}_bucket`, labels: { le: "+Inf", method, route }, value: s.count });
          values.push({ metricName: `${name}_sum`, labels: { method, route }, value: s.sum });
          values.push({ metricName: `${name}_count`, labels: { method, route }, value: s.count });
        });
        return values;
      }),
    );
  }
}

/** A metric prom-client's registry renders from values computed when /metrics is read. */
function scraped(name: string, help: string, type: "counter" | "histogram", values: () => Sample[]) {
  const metric = {
    name,
    help,
    type,
    aggregator: "sum" as const,
    get: () => Promise.resolve({ name, help, type, aggregator: "sum" as const, values: values() }),
    reset: () => {},
  };
  return metric as unknown as Parameters<Registry["registerMetric"]>[0];
}
