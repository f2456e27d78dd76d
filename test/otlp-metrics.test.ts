import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { startOtlpReceiver, type OtlpReceiver } from "./support/otlp-receiver.ts";

// With OTEL_EXPORTER_OTLP_ENDPOINT set, /metrics' series are pushed to the collector over OTLP/HTTP too.

type JsonPoint = { attributes?: { key: string; value: { stringValue?: string } }[]; asDouble?: number };
type JsonMetric = { name: string; sum?: { dataPoints: JsonPoint[]; isMonotonic?: boolean } };
type JsonExport = {
  resourceMetrics: { resource: { attributes: JsonPoint["attributes"] }; scopeMetrics: { metrics: JsonMetric[] }[] }[];
};

/** The value of a counter's series in one JSON export, undefined when the export does not carry it. */
function counterValue(exported: JsonExport, name: string, labels: Record<string, string>): number | undefined {
  for (const resource of exported.resourceMetrics)
    for (const scope of resource.scopeMetrics)
      for (const metric of scope.metrics) {
        if (metric.name !== name || !metric.sum?.isMonotonic) continue;
        const point = metric.sum.dataPoints.find((p) =>
          Object.entries(labels).every(([k, v]) => p.attributes?.some((a) => a.key === k && a.value.stringValue === v)),
        );
        if (point) return point.asDouble;
      }
  return undefined;
}

const ask = (gw: TestGateway, key: string) =>
  gw.request("/v1/chat/completions", {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "openai/gpt-4.1-mini", messages: [{ role: "user", content: "count me" }] }),
  });

describe("OTLP metrics: a keyed request's tokens reach the collector", () => {
  let receiver: OtlpReceiver;
  let openai: FakeLlm;
  const saved = { ...process.env };
  beforeAll(async () => {
    [receiver, openai] = await Promise.all([
      startOtlpReceiver(),
      startFakeOpenAICompatible({ key: "oa-k", reply: "Counted." }),
    ]);
    Object.assign(process.env, { OPENAI_API_KEY: "oa-k", UPSTREAM_OPENAI_URL: openai.url });
  });
  afterAll(async () => {
    process.env = saved;
    await Promise.all([receiver?.close(), openai?.close()]);
  });

  /** A gateway exporting metrics (traces off) to the receiver, with a key. */
  async function gateway(env: Record<string, string>) {
    const gw = await startTestGateway({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_TRACES_EXPORTER: "none",
        OTEL_METRIC_EXPORT_INTERVAL: "200",
        ...env,
      },
    });
    return { gw, key: (await gw.key()).key };
  }

  it("over http/json, as a monotonic cumulative sum labelled as /metrics labels it, with the service's name", async () => {
    const { gw, key } = await gateway({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_SERVICE_NAME: "metrics-test" });
    try {
      const res = await ask(gw, key);
      expect(res.status).toBe(200);
      const { usage } = (await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number } };
      const series = { provider: "openai" };
      const latest = () => {
        const exports = receiver.metrics().filter((m): m is JsonExport => !(m instanceof Uint8Array));
        const mine = exports.filter((e) =>
          e.resourceMetrics.some((r) => r.resource.attributes?.some((a) => a.value.stringValue === "metrics-test")),
        );
        const last = mine.at(-1);
        return last && counterValue(last, "gateway_llm_tokens_total", { ...series, direction: "input" });
      };
      await expect.poll(latest, { timeout: 10_000 }).toBe(usage.prompt_tokens);
      const last = receiver.metrics().at(-1) as JsonExport;
      expect(counterValue(last, "gateway_llm_tokens_total", { ...series, direction: "output" })).toBe(
        usage.completion_tokens,
      );
    } finally {
      await gw.close();
    }
  });

  it("over http/protobuf by default, and once more as the runtime closes", async () => {
    const { gw, key } = await gateway({ OTEL_METRIC_EXPORT_INTERVAL: "600000" });
    const before = receiver.bodies().length;
    expect((await ask(gw, key)).status).toBe(200);
    // The interval is ten minutes: what arrives is the export made as the runtime closes.
    await gw.close();
    const sent = receiver.bodies().slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.some((body) => body.includes("gateway_llm_tokens_total") && body.includes("gpt-4.1-mini"))).toBe(true);
    expect(receiver.metrics().slice(-1)[0]).toBeInstanceOf(Uint8Array);
  });
});
