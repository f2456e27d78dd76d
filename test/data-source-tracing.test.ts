import { describe, expect, it } from "vitest";
import { startFakeWikipedia, type FakeSource } from "./fakes/data-sources.ts";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./support/otlp-receiver.ts";
import { useGateway } from "./support/use-gateway.ts";

const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 };
const SEARCH = "babbage difference engine";

/** A traced gateway's data-source and tool requests, as an OpenTelemetry collector receives them. */
describe("traces of data-source and tool requests", () => {
  let receiver: OtlpReceiver;
  let wiki: FakeSource;
  // Filled in once the receiver listens, before the gateway reads it.
  const config: Record<string, string> = {};
  const t = useGateway({
    fakes: async () => {
      [receiver, wiki] = await Promise.all([startOtlpReceiver(), startFakeWikipedia()]);
      Object.assign(config, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
        OTEL_BSP_SCHEDULE_DELAY: "50",
      });
      return [receiver, wiki];
    },
    env: () => ({ UPSTREAM_WIKIPEDIA_URL: wiki.url }),
    config,
    key: { minute: 1000 },
  });

  async function traceOf(res: Response): Promise<{ server: ReceivedSpan; spans: ReceivedSpan[] }> {
    const requestId = res.headers.get("x-request-id")!;
    await t.gw.rt.tracing!.flush();
    const all = await receiver.waitFor((spans) => spans.some((s) => s.attributes["gateway.request_id"] === requestId));
    const server = all.find((s) => s.attributes["gateway.request_id"] === requestId)!;
    return { server, spans: all.filter((s) => s.traceId === server.traceId) };
  }

  it("a data-source search is a server span with a CLIENT span for its upstream request, whose traceparent the upstream got", async () => {
    const from = wiki.hits.length;
    const res = await t.get(`/v1/data/wikipedia/search?q=${encodeURIComponent(SEARCH)}&limit=2`);
    expect(res.status).toBe(200);
    const { server, spans } = await traceOf(res);
    expect(server.name).toBe("GET /v1/data/wikipedia/search");
    const upstream = spans.filter((s) => s.parentSpanId === server.spanId && s.kind === SPAN_KIND.CLIENT);
    expect(upstream.map((s) => s.name)).toEqual(["GET wikipedia"]);
    expect(upstream[0]!.attributes).toMatchObject({
      "http.request.method": "GET",
      "server.address": "127.0.0.1",
      "http.response.status_code": 200,
      "gateway.upstream": "wikipedia",
    });
    expect(wiki.hits.length).toBe(from + 1);
    expect(wiki.traceparents[from]).toBe(`00-${server.traceId}-${upstream[0]!.spanId}-01`);
  });

  it("a tool run is an execute_tool span over its upstream request; neither search terms nor the key are exported", async () => {
    const res = await t.post("/v1/tools/wikipedia_get_summary", { title: "Ada Lovelace" });
    expect(res.status).toBe(200);
    const { server, spans } = await traceOf(res);
    const tool = spans.find((s) => s.parentSpanId === server.spanId && s.name.startsWith("execute_tool"));
    expect(tool).toMatchObject({
      name: "execute_tool wikipedia_get_summary",
      kind: SPAN_KIND.INTERNAL,
      attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "wikipedia_get_summary" },
    });
    const upstream = spans.filter((s) => s.parentSpanId === tool!.spanId);
    expect(upstream.map((s) => [s.name, s.kind])).toEqual([["GET wikipedia", SPAN_KIND.CLIENT]]);
    expect(wiki.traceparents.at(-1)).toBe(`00-${server.traceId}-${upstream[0]!.spanId}-01`);

    await t.gw.rt.tracing!.flush();
    const bodies = receiver.bodies().join("\n");
    expect(bodies).not.toContain("babbage");
    expect(bodies).not.toContain("Lovelace");
    expect(bodies).not.toContain(t.key);
  });
});
