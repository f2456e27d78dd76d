import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findRequest } from "../lib/usage/request-log.ts";
import { FAULTY_REPLY, startFaultyProvider, type FaultyProvider } from "./fakes/faulty-llm.ts";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./support/otlp-receiver.ts";
import { addProbeRoutes } from "./support/probe-routes.ts";
import { startRoutedGateway, type RoutedGateway } from "./support/routing-gateway.ts";

const PROMPT = "Which lighthouse keeps the marmalade?";
const SYSTEM = "Answer as the lighthouse keeper would.";
const SPAN_KIND = { SERVER: 2, CLIENT: 3 };

/** Each compatible surface's body for a model call, with the same system prompt and question. */
const SURFACES = {
  "/v1/chat/completions": (model: string, stream: boolean) => ({
    model,
    stream,
    messages: [
      { role: "system", content: SYSTEM },
      { role: "user", content: PROMPT },
    ],
  }),
  "/v1/messages": (model: string, stream: boolean) => ({
    model,
    stream,
    max_tokens: 100,
    system: SYSTEM,
    messages: [{ role: "user", content: PROMPT }],
  }),
  "/v1/responses": (model: string, stream: boolean) => ({
    model,
    stream,
    store: false,
    instructions: SYSTEM,
    input: PROMPT,
  }),
  "/v1/llm/chat": (model: string, stream: boolean) => ({
    model,
    stream,
    messages: [
      { role: "system", content: SYSTEM },
      { role: "user", content: PROMPT },
    ],
  }),
} as const;
type Path = keyof typeof SURFACES;

/**
 * A gateway traced to an in-process collector, its models on the faulty provider's healthy path: `oa`
 * speaks OpenAI's wire (finish reason "stop"), `an` Anthropic's ("end_turn").
 */
async function tracedGateway(env: Record<string, string> = {}) {
  const [receiver, provider] = await Promise.all([startOtlpReceiver(), startFaultyProvider()]);
  const gw = await startRoutedGateway({
    routing: {
      deployments: [
        {
          name: "oa-ok",
          provider: "openai",
          model: "gpt-4.1",
          credential: "ANSWERS_OA_KEY",
          origin: `${provider.url}/ok`,
        },
        {
          name: "an-ok",
          provider: "anthropic",
          model: "claude-sonnet-4-5",
          credential: "ANSWERS_AN_KEY",
          origin: `${provider.url}/ok`,
        },
      ],
      aliases: { oa: { deployments: ["oa-ok"] }, an: { deployments: ["an-ok"] } },
    },
    providerEnv: { ANSWERS_OA_KEY: "oa-key", ANSWERS_AN_KEY: "an-key" },
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "50",
      ...env,
    },
  });
  return { receiver, provider, gw };
}

type Traced = { receiver: OtlpReceiver; provider: FaultyProvider; gw: RoutedGateway };

/** A model call on `path`, read to its end (a stream's last event), and its request id. */
async function call(t: Traced, path: Path, model: string, stream: boolean, requestId: string): Promise<string> {
  const res = await t.gw.request(path, {
    method: "POST",
    headers: { authorization: `Bearer ${t.gw.apiKey}`, "content-type": "application/json", "x-request-id": requestId },
    body: JSON.stringify(SURFACES[path](model, stream)),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(text).toContain(stream ? "answered" : FAULTY_REPLY);
  return requestId;
}

/** The request's server span and the span of the attempt that answered it, once both have arrived. */
async function spansOf(t: Traced, requestId: string): Promise<{ server: ReceivedSpan; attempt: ReceivedSpan }> {
  const find = (spans: ReceivedSpan[]) => {
    const server = spans.find((s) => s.kind === SPAN_KIND.SERVER && s.attributes["gateway.request_id"] === requestId);
    const attempt = spans.find((s) => s.kind === SPAN_KIND.CLIENT && s.parentSpanId === server?.spanId);
    return server && attempt ? { server, attempt } : undefined;
  };
  await t.gw.rt.tracing!.flush();
  return find(await t.receiver.waitFor((spans) => find(spans) !== undefined))!;
}

const closeAll = async (t: Traced | undefined) => {
  await t?.gw.close();
  await Promise.all([t?.receiver.close(), t?.provider.close()]);
};

describe("a traced gateway's request log, logs and answers (content capture off)", () => {
  let t: Traced;

  beforeAll(async () => {
    t = await tracedGateway();
    addProbeRoutes(t.gw.app);
  });
  afterAll(() => closeAll(t));

  it("keeps the request's trace id in its request-log row, found by its X-Request-Id", async () => {
    const requestId = await call(t, "/v1/chat/completions", "oa", false, "answers-log-1");
    const { server } = await spansOf(t, requestId);
    expect(server.traceId).toMatch(/^[0-9a-f]{32}$/);
    // Before the meter writes it (this instance's pending event, unless it has just been written) and after.
    const key = await t.gw.rt.db.prisma.apiKey.findFirstOrThrow({ select: { id: true } });
    const pending = t.gw.rt.meter.pendingFor(key.id);
    expect((await findRequest(t.gw.rt.db, requestId, { pending })).entries[0]?.traceId).toBe(server.traceId);
    await t.gw.rt.meter.flush();
    const written = await findRequest(t.gw.rt.db, requestId);
    expect(written.entries.map((e) => [e.id !== null, e.traceId])).toEqual([[true, server.traceId]]);
  });

  it("puts the trace id on the unhandled-error log line", async () => {
    const logged = vi.spyOn(t.gw.rt.logger, "error");
    try {
      const res = await t.gw.request("/v1/probe/boom", {
        headers: { authorization: `Bearer ${t.gw.apiKey}`, "x-request-id": "answers-boom-1" },
      });
      expect(res.status).toBe(500);
      await t.gw.rt.tracing!.flush();
      const spans = await t.receiver.waitFor((all) =>
        all.some((s) => s.attributes["gateway.request_id"] === "answers-boom-1"),
      );
      const server = spans.find((s) => s.attributes["gateway.request_id"] === "answers-boom-1")!;
      const line = logged.mock.calls.find(([, message]) => message === "unhandled error")?.[0];
      expect(line).toMatchObject({ requestId: "answers-boom-1", traceId: server.traceId });
    } finally {
      logged.mockRestore();
    }
  });

  const cases: Array<[Path, string, string]> = [
    ["/v1/chat/completions", "oa", "stop"],
    ["/v1/chat/completions", "an", "end_turn"],
    ["/v1/messages", "an", "end_turn"],
    ["/v1/messages", "oa", "stop"],
    ["/v1/responses", "oa", "stop"],
    ["/v1/responses", "an", "end_turn"],
    ["/v1/llm/chat", "oa", "stop"],
    ["/v1/llm/chat", "an", "end_turn"],
  ];
  for (const stream of [false, true])
    it.each(cases)(
      `records why the answer finished on the answering attempt's span: %s on %s (${stream ? "streamed" : "whole"})`,
      async (path, model, reason) => {
        const requestId = await call(t, path, model, stream, `answers-${model}-${stream}-${path.replaceAll("/", "")}`);
        const { attempt } = await spansOf(t, requestId);
        expect(attempt.attributes["gen_ai.response.finish_reasons"]).toEqual([reason]);
        expect(attempt.attributes["gen_ai.input.messages"]).toBeUndefined();
        expect(attempt.attributes["gen_ai.output.messages"]).toBeUndefined();
      },
    );

  it("never exports the prompt, the system prompt or the answer", async () => {
    await t.gw.rt.tracing!.flush();
    const exported = t.receiver.bodies().join("\n");
    expect(exported).toContain("gen_ai.response.finish_reasons");
    for (const text of [PROMPT, SYSTEM, FAULTY_REPLY, "lighthouse", "answered"]) expect(exported).not.toContain(text);
  });
});

describe("a traced gateway with OTEL_GENAI_CAPTURE_CONTENT=true", () => {
  let t: Traced;

  beforeAll(async () => {
    t = await tracedGateway({ OTEL_GENAI_CAPTURE_CONTENT: "true" });
  });
  afterAll(() => closeAll(t));

  const json = (value: unknown) => JSON.parse(String(value)) as unknown;

  it.each([
    ["/v1/chat/completions", "oa", false],
    ["/v1/chat/completions", "an", true],
    ["/v1/responses", "oa", true],
    ["/v1/llm/chat", "oa", true],
    ["/v1/llm/chat", "an", false],
  ] as Array<[Path, string, boolean]>)(
    "puts the request's messages and the answer on the answering attempt's span: %s on %s (streamed: %s)",
    async (path, model, stream) => {
      const requestId = await call(t, path, model, stream, `capture-${model}-${stream}-${path.replaceAll("/", "")}`);
      const { attempt } = await spansOf(t, requestId);
      const input = JSON.stringify(json(attempt.attributes["gen_ai.input.messages"]));
      expect(input).toContain(PROMPT);
      expect(json(attempt.attributes["gen_ai.output.messages"])).toEqual([
        {
          role: "assistant",
          parts: [{ type: "text", content: FAULTY_REPLY }],
          finish_reason: model === "oa" ? "stop" : "end_turn",
        },
      ]);
    },
  );

  it("gives Anthropic's separate system prompt as the system instructions", async () => {
    const requestId = await call(t, "/v1/messages", "an", false, "capture-messages-system");
    const { attempt } = await spansOf(t, requestId);
    expect(json(attempt.attributes["gen_ai.system_instructions"])).toEqual([{ type: "text", content: SYSTEM }]);
    expect(json(attempt.attributes["gen_ai.input.messages"])).toEqual([
      { role: "user", parts: [{ type: "text", content: PROMPT }] },
    ]);
  });
});
