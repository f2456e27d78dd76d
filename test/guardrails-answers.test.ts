import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { requestDetailView } from "../lib/portal/usage/request-log.ts";
import { startFakeAnthropic, startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startRoutedGateway, type RoutedGateway } from "./support/routing-gateway.ts";

// The models write personal data of their own (Eve's address), repeat the caller's placeholder ([EMAIL_1])
// and a listed term; the JSON model answers one object. Each fake streams its reply word by word.
const REPLY = "Sure: wrote to [EMAIL_1]; reach Eve at eve@example.com about Project Falcon.";
const JSON_REPLY = '{"name": "Ann", "age": 41}';
const BLOCKED = 'guardrails: the answer holds personal data (email), which the policy "answers" does not let through';

describe("guardrail policies on model calls' answers", () => {
  let gw: RoutedGateway;
  let xai: FakeLlm;
  let anthropic: FakeLlm;
  let openai: FakeLlm;
  const keys: Record<string, { id: string; key: string }> = {};

  beforeAll(async () => {
    [xai, anthropic, openai] = await Promise.all([
      startFakeOpenAICompatible({ key: "xai-test", reply: REPLY }),
      startFakeAnthropic({ key: "anthropic-test", reply: REPLY }),
      startFakeOpenAICompatible({ key: "openai-test", reply: JSON_REPLY }),
    ]);
    const person = {
      type: "object",
      properties: { name: { type: "string" }, age: { type: "integer" } },
      required: ["name"],
    };
    gw = await startRoutedGateway({
      routing: {
        deployments: [],
        guardrails: {
          answers: { checks: ["pii"], action: "block", stages: ["answer"] },
          mask: {
            checks: ["pii", "words"],
            action: "redact",
            stages: ["prompt", "answer"],
            words: { terms: ["Project Falcon"] },
          },
          watch: { checks: ["pii"], action: "flag", stages: ["answer"] },
          person: { checks: ["json_schema"], action: "block", json_schema: { schema: person } },
          contact: { checks: ["json_schema"], action: "block", json_schema: { schema: { required: ["email"] } } },
        },
      },
      providerEnv: {
        XAI_API_KEY: "xai-test",
        UPSTREAM_XAI_URL: xai.url,
        ANTHROPIC_API_KEY: "anthropic-test",
        UPSTREAM_ANTHROPIC_URL: anthropic.url,
        OPENAI_API_KEY: "openai-test",
        UPSTREAM_OPENAI_URL: openai.url,
      },
    });
    for (const policy of ["answers", "mask", "watch", "person", "contact"])
      keys[policy] = await gw.key({ name: `answers under ${policy}`, guardrails: policy });
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([xai?.close(), anthropic?.close(), openai?.close()]);
  });

  const post = (path: string, policy: string, body: object, requestId: string) =>
    gw.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": keys[policy]!.key, "x-request-id": requestId },
      body: JSON.stringify(body),
    });
  const chat = (model = "xai/grok-4") => ({ model, messages: [{ role: "user", content: "Draft a note." }] });
  /** The request's log row, once the meter has it (a stream's is recorded as it ends, just after its last byte). */
  const logRow = async (requestId: string) =>
    vi.waitFor(
      async () => {
        await gw.rt.meter.flush();
        const row = (await requestDetailView(gw.rt, { operator: true }, requestId))?.rows[0];
        expect(row).toBeDefined();
        return row!;
      },
      { timeout: 10_000 },
    );

  it("blocks a whole chat completion with 422 in OpenAI's shape, metering the tokens the call spent", async () => {
    const res = await post("/v1/chat/completions", "answers", chat(), "answer-block-chat");
    expect(res.status).toBe(422);
    expect(res.headers.get("x-gateway-guardrails")).toBe("pii:block");
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error).toMatchObject({ message: BLOCKED, type: "invalid_request_error" });
    expect(JSON.stringify(body)).not.toContain("eve@example.com");
    const row = await logRow("answer-block-chat");
    // The fake reports a token a word.
    expect(row).toMatchObject({
      status: 422,
      error: BLOCKED,
      provider: "xai",
      completionTokens: REPLY.split(" ").length,
    });
    expect(row.promptTokens).toBeGreaterThan(0);
    expect(row.guardrails).toEqual([
      { policy: "answers", check: "pii", action: "block", stage: "answer", found: { email: 1 } },
    ]);
  });

  it("blocks a whole Anthropic message with 422 in Anthropic's shape", async () => {
    const res = await post(
      "/v1/messages",
      "answers",
      { model: "anthropic/claude-sonnet-4-5", max_tokens: 50, messages: [{ role: "user", content: "Draft a note." }] },
      "answer-block-messages",
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ type: "error", error: { type: "invalid_request_error", message: BLOCKED } });
  });

  it("blocks a whole Response with 422, and forgets the stored response so it cannot be read back", async () => {
    const stored = () => gw.rt.db.prisma.storedResponse.count({ where: { ownerKeyId: keys.answers!.id } });
    const res = await post(
      "/v1/responses",
      "answers",
      { model: "xai/grok-4", input: "Draft a note." },
      "answer-block-responses",
    );
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(BLOCKED);
    expect(await stored()).toBe(0);
  });

  it("masks the model's own personal data and listed terms under redact, and puts the caller's values back", async () => {
    const res = await post(
      "/v1/chat/completions",
      "mask",
      { model: "xai/grok-4", messages: [{ role: "user", content: "Write to bob@example.com." }] },
      "answer-redact",
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-guardrails")).toBe("pii:redact, words:redact");
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]!.message.content).toBe(
      "Sure: wrote to bob@example.com; reach Eve at [REDACTED_EMAIL] about [REDACTED].",
    );
    expect((await logRow("answer-redact")).guardrails).toEqual([
      { policy: "mask", check: "pii", action: "redact", stage: "prompt", found: { email: 1 } },
      { policy: "mask", check: "pii", action: "redact", stage: "answer", found: { email: 1 } },
      { policy: "mask", check: "words", action: "redact", stage: "answer", found: { term: 1 } },
    ]);
  });

  it("masks a streamed answer the same way, on the gateway's own chat", async () => {
    const res = await post(
      "/v1/llm/chat",
      "mask",
      { model: "xai/grok-4", stream: true, messages: [{ role: "user", content: "Write to bob@example.com." }] },
      "answer-redact-stream",
    );
    const text = (await res.text())
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => (JSON.parse(l.slice(6)) as { content?: string }).content ?? "")
      .join("");
    expect(text).toBe("Sure: wrote to bob@example.com; reach Eve at [REDACTED_EMAIL] about [REDACTED].");
  });

  it("lets an answer its JSON schema accepts through unchanged, and blocks one it refuses, saying where", async () => {
    const fine = await post("/v1/chat/completions", "person", chat("openai/gpt-4.1"), "answer-schema-pass");
    expect(fine.status).toBe(200);
    expect(fine.headers.get("x-gateway-guardrails")).toBeNull();
    expect(
      ((await fine.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content,
    ).toBe(JSON_REPLY);
    const refused = await post("/v1/chat/completions", "contact", chat("openai/gpt-4.1"), "answer-schema-fail");
    expect(refused.status).toBe(422);
    expect(refused.headers.get("x-gateway-guardrails")).toBe("json_schema:block");
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'guardrails: the answer does not match the policy\'s JSON schema (/ required), which the policy "contact" does not let through',
    );
    expect((await logRow("answer-schema-fail")).guardrails).toEqual([
      {
        policy: "contact",
        check: "json_schema",
        action: "block",
        stage: "answer",
        found: { schema: 1 },
        reason: "/ required",
      },
    ]);
  });

  it("ends a chat stream at the personal data, and the OpenAI SDK raises the error event", async () => {
    const client = new OpenAI({
      apiKey: keys.answers!.key,
      baseURL: `${gw.url}/v1`,
      maxRetries: 0,
      defaultHeaders: { "x-request-id": "answer-stream-chat" },
    });
    const stream = await client.chat.completions.create({ ...chat(), stream: true } as never);
    let text = "";
    const reading = (async () => {
      for await (const c of stream as unknown as AsyncIterable<OpenAI.Chat.ChatCompletionChunk>)
        text += c.choices[0]?.delta.content ?? "";
    })();
    await expect(reading).rejects.toThrow(BLOCKED);
    expect(text).toBe("Sure: wrote to [EMAIL_1]; reach Eve at ");
    const row = await logRow("answer-stream-chat");
    expect(row).toMatchObject({ status: 422, error: BLOCKED });
    expect(row.guardrails).toEqual([
      { policy: "answers", check: "pii", action: "block", stage: "answer", found: { email: 1 } },
    ]);
  });

  it("ends an Anthropic stream at the personal data, and the Anthropic SDK raises the error event", async () => {
    const client = new Anthropic({ apiKey: keys.answers!.key, baseURL: gw.url, maxRetries: 0 });
    const stream = client.messages.stream({
      model: "anthropic/claude-sonnet-4-5",
      max_tokens: 50,
      messages: [{ role: "user", content: "Draft a note." }],
    });
    let text = "";
    stream.on("text", (t) => (text += t));
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as InstanceType<typeof Anthropic.APIError>).error).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: BLOCKED },
    });
    expect(text).not.toContain("eve@example.com");
    expect(text).toBe("Sure: wrote to [EMAIL_1]; reach Eve at ");
  });

  it("ends a Responses stream at the personal data with a failed response", async () => {
    const res = await post(
      "/v1/responses",
      "answers",
      { model: "xai/grok-4", input: "Draft a note.", stream: true },
      "answer-stream-responses",
    );
    const events = await res.text();
    expect(events).not.toContain("eve@example.com");
    expect(events).not.toContain("response.completed");
    const last = events.trim().split("\n\n").at(-1)!;
    expect(last.split("\n")[0]).toBe("event: response.failed");
    const failed = JSON.parse(last.split("\n")[1]!.slice(6)) as { response: { status: string; error: object } };
    expect(failed.response.status).toBe("failed");
    expect(failed.response.error).toEqual({ code: "answer_blocked", message: BLOCKED });
  });

  it("flags a streamed answer without changing it, and counts every answer decision in /metrics", async () => {
    const res = await post("/v1/chat/completions", "watch", { ...chat(), stream: true }, "answer-flag-stream");
    expect(await res.text()).toContain("eve@example.com");
    expect((await logRow("answer-flag-stream")).guardrails).toEqual([
      { policy: "watch", check: "pii", action: "flag", stage: "answer", found: { email: 1 } },
    ]);
    const metrics = await (await gw.request("/metrics")).text();
    for (const [check, action] of [
      ["pii", "block"],
      ["pii", "redact"],
      ["words", "redact"],
      ["pii", "flag"],
      ["json_schema", "block"],
    ])
      expect(metrics).toMatch(
        new RegExp(`gateway_guardrail_decisions_total\\{check="${check}",action="${action}"\\} [1-9]`),
      );
  });
});
