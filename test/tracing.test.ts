import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startFaultyProvider, type FaultyProvider } from "./fakes/faulty-llm.ts";
import { tempDir } from "./support/backends.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./support/otlp-receiver.ts";

const PROVIDER_KEY = "sk-provider-trace-secret";
const PROMPT = "Tell me about the lighthouse keeper's marmalade";
const CALLER_TRACE = "0af7651916cd43dd8448eb211c80319c";
const CALLER_SPAN = "b7ad6b7169203331";
const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 };
const STATUS_ERROR = 2;

const credentials = { OPENAI_API_KEY: PROVIDER_KEY, TRACE_ROUTE_A_KEY: "a-key", TRACE_ROUTE_B_KEY: "b-key" };

/** One gateway traced to an in-process collector, over each OTLP encoding the gateway speaks. */
describe.each(["http/protobuf", "http/json"] as const)("traces over OTLP (%s)", (protocol) => {
  let receiver: OtlpReceiver;
  let provider: FakeLlm;
  let faulty: FaultyProvider;
  let gw: TestGateway;
  let key: { id: string; key: string };
  const saved = { ...process.env };

  beforeAll(async () => {
    [receiver, provider, faulty] = await Promise.all([
      startOtlpReceiver(),
      startFakeOpenAICompatible({ key: PROVIDER_KEY, reply: "Orange peel and patience keep the light.", delayMs: 40 }),
      startFaultyProvider(),
    ]);
    const file = path.join(tempDir("tracing"), "gateway.config.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        deployments: [
          {
            name: "down",
            provider: "openai",
            model: "gpt-4.1",
            credential: "TRACE_ROUTE_A_KEY",
            origin: `${faulty.url}/500`,
          },
          {
            name: "claude",
            provider: "anthropic",
            model: "claude-sonnet-4-5",
            credential: "TRACE_ROUTE_B_KEY",
            origin: `${faulty.url}/ok`,
          },
        ],
        aliases: { smart: { strategy: "fallback", retries: 1, deployments: ["down", "claude"] } },
      }),
    );
    // Provider calls read their credentials and origins from the process's environment.
    Object.assign(process.env, credentials, { UPSTREAM_OPENAI_URL: provider.url });
    gw = await startTestGateway({
      env: {
        ...credentials,
        GATEWAY_CONFIG: file,
        GATEWAY_BREAKER_THRESHOLD: "1000",
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_BSP_SCHEDULE_DELAY: "50",
      },
    });
    key = await gw.key();
  });

  afterAll(async () => {
    await gw?.close();
    await Promise.all([receiver?.close(), provider?.close(), faulty?.close()]);
    process.env = saved;
  });

  const chat = (body: object, headers: Record<string, string> = {}) =>
    gw.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json", ...headers },
      body: JSON.stringify({ messages: [{ role: "user", content: PROMPT }], ...body }),
    });

  /** The spans of the request that answered with `requestId`, once its server span has arrived. */
  async function traceOf(requestId: string): Promise<{ server: ReceivedSpan; spans: ReceivedSpan[] }> {
    await gw.rt.tracing!.flush();
    const all = await receiver.waitFor((spans) =>
      spans.some((s) => s.kind === SPAN_KIND.SERVER && s.attributes["gateway.request_id"] === requestId),
    );
    const server = all.find((s) => s.attributes["gateway.request_id"] === requestId)!;
    return { server, spans: all.filter((s) => s.traceId === server.traceId) };
  }

  it("continue the caller's trace through a keyed completion to the provider, with the GenAI attributes", async () => {
    const res = await chat({ model: "openai/gpt-4.1-mini" }, { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` });
    expect(res.status).toBe(200);
    const { server, spans } = await traceOf(res.headers.get("x-request-id")!);

    expect(server.traceId).toBe(CALLER_TRACE);
    expect(server.parentSpanId).toBe(CALLER_SPAN);
    expect(server.name).toBe("POST /v1/chat/completions");
    expect(server.attributes).toMatchObject({
      "http.route": "/v1/chat/completions",
      "http.response.status_code": 200,
      "gateway.key_id": key.id,
    });

    const attempts = spans.filter((s) => s.parentSpanId === server.spanId && s.kind === SPAN_KIND.CLIENT);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.name).toBe("chat gpt-4.1-mini");
    expect(attempts[0]!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.system": "openai",
      "gen_ai.request.model": "gpt-4.1-mini",
      "gateway.deployment": "openai/gpt-4.1-mini",
      "gen_ai.usage.input_tokens": expect.any(Number),
      "gen_ai.usage.output_tokens": expect.any(Number),
    });
    // The provider's request named the attempt's span as its parent.
    const sent = provider.requests.at(-1)!.headers.traceparent;
    expect(sent).toBe(`00-${CALLER_TRACE}-${attempts[0]!.spanId}-01`);
  });

  it("show a failed attempt, its retry and the fallback that answered as the request's children", async () => {
    const res = await chat({ model: "smart" });
    expect(res.status).toBe(200);
    const { server, spans } = await traceOf(res.headers.get("x-request-id")!);
    const attempts = spans
      .filter((s) => s.parentSpanId === server.spanId && s.kind === SPAN_KIND.CLIENT)
      .sort((a, b) => Number(a.startNs - b.startNs));
    expect(attempts.map((a) => a.attributes["gateway.deployment"])).toEqual(["down", "down", "claude"]);
    for (const failed of attempts.slice(0, 2)) {
      expect(failed.status.code).toBe(STATUS_ERROR);
      expect(failed.attributes).toMatchObject({ "http.response.status_code": 500, "gateway.alias": "smart" });
      expect(failed.attributes["gateway.retry_reason"]).toEqual(expect.any(String));
    }
    expect(attempts.map((a) => a.attributes["gateway.attempt"])).toEqual([0, 1, 0]);
    expect(attempts[2]!.status.code).not.toBe(STATUS_ERROR);
    expect(attempts[2]!.attributes["gen_ai.system"]).toBe("anthropic");
    expect(server.status.code).not.toBe(STATUS_ERROR);
  });

  it("end the stream's span when the client leaves, and say so", async () => {
    const res = await chat({ model: "openai/gpt-4.1-mini", stream: true });
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    const requestId = res.headers.get("x-request-id")!;
    await expect.poll(() => provider.abandoned(), { timeout: 10_000 }).toBeGreaterThan(0);
    const { server, spans } = await traceOf(requestId);
    const stream = spans.find((s) => s.name === "gateway.stream" && s.parentSpanId === server.spanId)!;
    expect(stream).toBeDefined();
    expect(stream.events.map((e) => e.name)).toEqual(expect.arrayContaining(["first_byte", "client_left"]));
    expect(stream.attributes["gateway.client_left"]).toBe(true);
    expect(stream.endNs).toBeGreaterThanOrEqual(stream.startNs);
  });

  it("never export a key, the provider's key or the prompt", async () => {
    await gw.rt.tracing!.flush();
    const exported = receiver.bodies().join("\n");
    expect(exported.length).toBeGreaterThan(0);
    for (const secret of [key.key, PROVIDER_KEY, "a-key", "b-key", PROMPT, "lighthouse"])
      expect(exported).not.toContain(secret);
  });
});

describe("with tracing off", () => {
  it("sends the provider no traceparent and makes no tracer", async () => {
    const provider = await startFakeOpenAICompatible({ key: PROVIDER_KEY, reply: "untraced" });
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: PROVIDER_KEY, UPSTREAM_OPENAI_URL: provider.url });
    const gw = await startTestGateway();
    try {
      expect(gw.rt.tracing).toBeUndefined();
      const { key } = await gw.key();
      const res = await gw.request("/v1/chat/completions", {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`,
        },
        body: JSON.stringify({ model: "openai/gpt-4.1-mini", messages: [{ role: "user", content: "hi" }] }),
      });
      expect(res.status).toBe(200);
      expect(provider.requests.at(-1)!.headers.traceparent).toBeUndefined();
    } finally {
      await gw.close();
      await provider.close();
      process.env = saved;
    }
  });
});
