import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { RequestMetrics } from "./request-metrics.ts";

describe("RequestMetrics", () => {
  it("renders requests by status and a cumulative duration histogram in Prometheus text", async () => {
    const registry = new Registry();
    const m = new RequestMetrics();
    m.register(registry);
    m.record("GET", "/health", 200, 0.0004);
    m.record("GET", "/health", 200, 0.003);
    m.record("GET", "/health", 503, 40);
    m.record("POST", "/v1/chat/completions", 200, 0.02);
    const text = await registry.metrics();
    expect(text).toContain('gateway_http_requests_total{method="GET",route="/health",status="200"} 2');
    expect(text).toContain('gateway_http_requests_total{method="GET",route="/health",status="503"} 1');
    expect(text).toContain('gateway_http_requests_total{method="POST",route="/v1/chat/completions",status="200"} 1');
    expect(text).toContain("# TYPE gateway_http_request_duration_seconds histogram");
    expect(text).toContain('gateway_http_request_duration_seconds_bucket{le="0.001",method="GET",route="/health"} 1');
    expect(text).toContain('gateway_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/health"} 2');
    expect(text).toContain('gateway_http_request_duration_seconds_bucket{le="30",method="GET",route="/health"} 2');
    expect(text).toContain('gateway_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/health"} 3');
    expect(text).toContain('gateway_http_request_duration_seconds_count{method="GET",route="/health"} 3');
    expect(text).toMatch(/gateway_http_request_duration_seconds_sum\{method="GET",route="\/health"\} 40\.003/);
    expect(m.count("GET", "/health", 200)).toBe(2);
  });
});
