import http from "node:http";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CacheUse } from "../lib/usage/usage-event.ts";
import { startFakeAnthropic, startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { listen, type Listening } from "./support/listen.ts";

// One cached answer per question, whichever surface asked: the key is the question's chat pivot, so an
// answer given on /v1/chat/completions, /v1/messages or /v1/responses answers the others, each in its
// own shape, whole or streamed, with no provider call.
describe("the response cache across /v1/chat/completions, /v1/messages and /v1/responses", () => {
  let gw: TestGateway;
  let server: Listening;
  let xai: FakeLlm;
  let claude: FakeLlm;
  let openai: OpenAI;
  let anthropic: Anthropic;
  let otherKey: Anthropic;
  const saved = { ...process.env };
  const cached = { headers: { "cache-control": "max-age=600" } };
  const GROK = "xai/grok-4";
  const CLAUDE = "anthropic/claude-haiku-4-5";
  const REPLY = "Cached words travel far.";

  beforeAll(async () => {
    [xai, claude] = await Promise.all([
      startFakeOpenAICompatible({ key: "xai-k", reply: REPLY }),
      startFakeAnthropic({ key: "an-k", reply: "Claude keeps this." }),
    ]);
    Object.assign(process.env, {
      XAI_API_KEY: "xai-k",
      UPSTREAM_XAI_URL: xai.url,
      ANTHROPIC_API_KEY: "an-k",
      UPSTREAM_ANTHROPIC_URL: claude.url,
    });
    gw = await startTestGateway();
    server = await listen(http.createServer(gw.app.node));
    const [a, b] = [await gw.key({ minute: 10_000 }), await gw.key({ minute: 10_000 })];
    openai = new OpenAI({ apiKey: a.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: a.key, baseURL: server.url, maxRetries: 0 });
    otherKey = new Anthropic({ apiKey: b.key, baseURL: server.url, maxRetries: 0 });
  });
  afterAll(async () => {
    process.env = saved;
    await server?.close();
    await gw?.close();
    await Promise.all([xai?.close(), claude?.close()]);
  });

  const chat = (content: string, model = GROK) => ({
    model,
    max_tokens: 64,
    messages: [{ role: "user" as const, content }],
  });
  const message = (content: string, model = GROK) => ({
    model,
    max_tokens: 64,
    messages: [{ role: "user" as const, content }],
  });
  const response = (input: string) => ({ model: GROK, input, max_output_tokens: 64 });

  async function cacheOf(res: Response): Promise<CacheUse | null> {
    await gw.rt.meter.flush();
    const row = await gw.rt.db.prisma.usageEvent.findFirst({ where: { requestId: res.headers.get("x-request-id")! } });
    return row?.cache as CacheUse | null;
  }

  /** A streamed message's text, stop reason and event names, as the Claude SDK reads them. */
  async function streamedMessage(stream: AsyncIterable<Anthropic.MessageStreamEvent>) {
    let text = "";
    let stop: string | null = null;
    const events: string[] = [];
    for await (const event of stream) {
      events.push(event.type);
      if (event.type === "content_block_delta" && event.delta.type === "text_delta") text += event.delta.text;
      if (event.type === "message_delta") stop = event.delta.stop_reason;
    }
    return { text, stop, events };
  }

  /** A streamed response's text and final status, as the openai SDK reads them. */
  async function streamedResponse(stream: AsyncIterable<OpenAI.Responses.ResponseStreamEvent>) {
    let text = "";
    let final: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") final = event.response;
    }
    return { text, final };
  }

  it("answers a question asked on chat completions again on /v1/messages in Anthropic's shape, whole and streamed", async () => {
    const first = await openai.chat.completions.create(chat("Where do words travel?"), cached).withResponse();
    expect(first.response.headers.get("x-gateway-cache")).toBe("miss");
    const sent = xai.requests.length;

    const whole = await anthropic.messages.create(message("Where do words travel?"), cached).withResponse();
    expect(whole.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(Number(whole.response.headers.get("age"))).toBeGreaterThanOrEqual(0);
    expect(whole.data).toMatchObject({ type: "message", role: "assistant", model: GROK, stop_reason: "end_turn" });
    expect(whole.data.id).toMatch(/^msg_/);
    expect(whole.data.content).toEqual([{ type: "text", text: first.data.choices[0]!.message.content }]);
    expect(whole.data.usage.output_tokens).toBe(first.data.usage!.completion_tokens);
    expect(await cacheOf(whole.response)).toMatchObject({ state: "hit", provider: "xai" });

    const streamed = await anthropic.messages
      .create({ ...message("Where do words travel?"), stream: true }, cached)
      .withResponse();
    expect(streamed.response.headers.get("x-gateway-cache")).toBe("hit");
    const read = await streamedMessage(streamed.data);
    expect(read.text).toBe(REPLY);
    expect(read.stop).toBe("end_turn");
    expect(read.events[0]).toBe("message_start");
    expect(read.events.at(-1)).toBe("message_stop");
    expect(xai.requests.length).toBe(sent);
  });

  it("keeps what /v1/messages asked an OpenAI-wire deployment, whole or streamed, for chat completions and responses", async () => {
    const sent = xai.requests.length;
    const whole = await anthropic.messages.create(message("Asked on messages."), cached).withResponse();
    expect(whole.response.headers.get("x-gateway-cache")).toBe("miss");
    expect(await cacheOf(whole.response)).toEqual({ state: "miss" });
    const stream = await anthropic.messages
      .create({ ...message("Streamed on messages."), stream: true }, cached)
      .withResponse();
    expect(stream.response.headers.get("x-gateway-cache")).toBe("miss");
    expect((await streamedMessage(stream.data)).text).toBe(REPLY);
    expect(xai.requests.length).toBe(sent + 2);

    const onChat = await openai.chat.completions.create(chat("Asked on messages."), cached).withResponse();
    expect(onChat.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(onChat.data.choices[0]!.message.content).toBe(REPLY);
    const onResponses = await openai.responses.create(response("Asked on messages."), cached).withResponse();
    expect(onResponses.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(onResponses.data.output_text).toBe(REPLY);
    const fromStream = await openai.chat.completions.create(chat("Streamed on messages."), cached).withResponse();
    expect(fromStream.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(fromStream.data.choices[0]!.message.content).toBe(REPLY);
    expect(xai.requests.length).toBe(sent + 2);
  });

  it("answers /v1/responses from the cache whole and streamed, storing the hit as a response that can be continued", async () => {
    const sent = xai.requests.length;
    const first = await openai.responses.create(response("Asked on responses."), cached).withResponse();
    expect(first.response.headers.get("x-gateway-cache")).toBe("miss");
    const again = await openai.responses.create(response("Asked on responses."), cached).withResponse();
    expect(again.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(again.data).toMatchObject({ object: "response", status: "completed", output_text: REPLY, model: GROK });
    expect(again.data.id).not.toBe(first.data.id);
    const streamed = await openai.responses
      .create({ ...response("Asked on responses."), stream: true }, cached)
      .withResponse();
    expect(streamed.response.headers.get("x-gateway-cache")).toBe("hit");
    const read = await streamedResponse(streamed.data);
    expect(read.text).toBe(REPLY);
    expect(read.final?.status).toBe("completed");
    expect(xai.requests.length).toBe(sent + 1);

    // The hit was stored as any answer is (store defaults to true): GET reads it, a follow-up continues it.
    expect((await openai.responses.retrieve(again.data.id)).output_text).toBe(REPLY);
    expect((await openai.responses.retrieve(read.final!.id)).output_text).toBe(REPLY);
    const follow = await openai.responses.create({ ...response("And then?"), previous_response_id: again.data.id });
    expect(follow.output_text).toBe(REPLY);
    const history = JSON.stringify(xai.requests.at(-1)!.body.messages);
    expect(history).toContain("Asked on responses.");
    expect(history).toContain(REPLY);

    // A stream on /v1/responses is kept too.
    const kept = await openai.responses.create({ ...response("Streamed on responses."), stream: true }, cached);
    expect((await streamedResponse(kept)).text).toBe(REPLY);
    const onChat = await openai.chat.completions.create(chat("Streamed on responses."), cached).withResponse();
    expect(onChat.response.headers.get("x-gateway-cache")).toBe("hit");
  });

  it("keeps an Anthropic deployment's whole answer to /v1/messages, which then answers chat completions", async () => {
    const sent = claude.requests.length;
    const first = await anthropic.messages.create(message("Ask Claude once.", CLAUDE), cached).withResponse();
    expect(first.response.headers.get("x-gateway-cache")).toBe("miss");
    expect(claude.requests.length).toBe(sent + 1);

    const onChat = await openai.chat.completions.create(chat("Ask Claude once.", CLAUDE), cached).withResponse();
    expect(onChat.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(onChat.data.choices[0]!.message.content).toBe("Claude keeps this.");
    expect(onChat.data.model).toBe(CLAUDE);
    const onMessages = await anthropic.messages.create(message("Ask Claude once.", CLAUDE), cached).withResponse();
    expect(onMessages.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(onMessages.data.content).toEqual([{ type: "text", text: "Claude keeps this." }]);
    expect(onMessages.data.usage.output_tokens).toBe(first.data.usage.output_tokens);
    expect(claude.requests.length).toBe(sent + 1);
  });

  it("keeps an Anthropic deployment's stream to /v1/messages, relayed as sent, for any surface and a stream again", async () => {
    const sent = claude.requests.length;
    const stream = await anthropic.messages
      .create({ ...message("Stream from Claude.", CLAUDE), stream: true }, cached)
      .withResponse();
    expect(stream.response.headers.get("x-gateway-cache")).toBe("miss");
    expect((await streamedMessage(stream.data)).text).toBe("Claude keeps this.");
    expect(await cacheOf(stream.response)).toEqual({ state: "miss" });

    const onChat = await openai.chat.completions.create(chat("Stream from Claude.", CLAUDE), cached).withResponse();
    expect(onChat.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(onChat.data.choices[0]!.message.content).toBe("Claude keeps this.");
    const again = await anthropic.messages
      .create({ ...message("Stream from Claude.", CLAUDE), stream: true }, cached)
      .withResponse();
    expect(again.response.headers.get("x-gateway-cache")).toBe("hit");
    const replayed = await streamedMessage(again.data);
    expect(replayed).toMatchObject({ text: "Claude keeps this.", stop: "end_turn" });
    expect(replayed.events.at(-1)).toBe("message_stop");
    expect(claude.requests.length).toBe(sent + 1);
  });

  it("never answers a follow-up (previous_response_id) from the cache", async () => {
    const first = await openai.responses.create(response("Start a thread."), cached);
    const sent = xai.requests.length;
    for (let i = 0; i < 2; i++) {
      const follow = await openai.responses
        .create({ ...response("Go on."), previous_response_id: first.id }, cached)
        .withResponse();
      expect(follow.response.headers.get("x-gateway-cache")).toBeNull();
      expect(follow.data.output_text).toBe(REPLY);
    }
    expect(xai.requests.length).toBe(sent + 2);
  });

  it("never gives one key's answer to another key on /v1/messages", async () => {
    await anthropic.messages.create(message("Mine on messages."), cached);
    const sent = xai.requests.length;
    const other = await otherKey.messages.create(message("Mine on messages."), cached).withResponse();
    expect(other.response.headers.get("x-gateway-cache")).toBe("miss");
    expect(xai.requests.length).toBe(sent + 1);
    const mine = await anthropic.messages.create(message("Mine on messages."), cached).withResponse();
    expect(mine.response.headers.get("x-gateway-cache")).toBe("hit");
    expect(xai.requests.length).toBe(sent + 1);
  });
});
