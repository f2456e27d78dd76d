import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { memoryTracing, type MemoryTracing } from "./support/memory-tracing.ts";
import { startRoutedGateway, type RoutedGateway } from "./support/routing-gateway.ts";

/** A keyed completion's request span names what its guardrail policy did, as x-gateway-guardrails does. */
describe("guardrail decisions on the request's span", () => {
  let gw: RoutedGateway;
  let xai: FakeLlm;
  let memory: MemoryTracing;

  beforeAll(async () => {
    xai = await startFakeOpenAICompatible({ key: "xai-test", reply: "Sent." });
    gw = await startRoutedGateway({
      routing: {
        deployments: [],
        guardrails: {
          mask: { checks: ["pii"], action: "redact" },
          strict: { checks: ["pii"], action: "block" },
        },
      },
      providerEnv: { XAI_API_KEY: "xai-test", UPSTREAM_XAI_URL: xai.url },
    });
    // Spans kept in memory: the server span's attributes are read as the exporter got them.
    memory = memoryTracing();
    gw.rt.tracing = memory.tracing;
  });
  afterAll(async () => {
    await gw?.close();
    await xai?.close();
  });

  async function serverSpanOf(policy: string | undefined, content: string) {
    const { key, id } = await gw.key({ name: `traced ${policy ?? "none"}`, ...(policy && { guardrails: policy }) });
    const res = await gw.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "xai/grok-4", messages: [{ role: "user", content }] }),
    });
    const requestId = res.headers.get("x-request-id");
    const span = (await memory.spans()).find((s) => s.attributes["gateway.request_id"] === requestId);
    expect(span?.attributes["gateway.key_id"]).toBe(id);
    return { res, attributes: span!.attributes };
  }

  it("carries the header's value when a policy fired, on an answer and on a refusal", async () => {
    const redacted = await serverSpanOf("mask", "Write to ada@example.com.");
    expect(redacted.res.status).toBe(200);
    expect(redacted.attributes["gateway.guardrails"]).toBe("pii:redact");
    expect(redacted.res.headers.get("x-gateway-guardrails")).toBe("pii:redact");

    const blocked = await serverSpanOf("strict", "Write to ada@example.com.");
    expect(blocked.res.status).toBe(400);
    expect(blocked.attributes["gateway.guardrails"]).toBe("pii:block");
  });

  it("has no such attribute when nothing fired", async () => {
    const quiet = await serverSpanOf("mask", "Nothing personal here.");
    expect(quiet.res.status).toBe(200);
    expect(quiet.attributes).not.toHaveProperty("gateway.guardrails");
  });
});
