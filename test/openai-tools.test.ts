import http from "node:http";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { listen, type Listening } from "./support/listen.ts";

const weatherTool = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Current weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("/v1/chat/completions passes OpenAI's options through: tools, tool calls, response_format…", () => {
  let gw: TestGateway;
  let server: Listening;
  let client: OpenAI;
  let xai: FakeLlm;
  let anthropic: FakeLlm;
  const saved = { ...process.env };

  beforeAll(async () => {
    [xai, anthropic] = await Promise.all([
      startFakeOpenAICompatible({
        key: "xai-k",
        reply: "It is 18 degrees in Paris.",
        toolCall: { name: "get_weather", arguments: { city: "Paris" } },
      }),
      startFakeAnthropic({ key: "an-k", reply: "Claude." }),
    ]);
    Object.assign(process.env, {
      XAI_API_KEY: "xai-k",
      UPSTREAM_XAI_URL: xai.url,
      ANTHROPIC_API_KEY: "an-k",
      UPSTREAM_ANTHROPIC_URL: anthropic.url,
    });
    gw = await startTestGateway();
    const created = await gw.key();
    server = await listen(http.createServer(gw.app.node));
    client = new OpenAI({ apiKey: created.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    process.env = saved;
    await server?.close();
    await gw?.close();
    await Promise.all([xai?.close(), anthropic?.close()]);
  });

  it("runs a tool-call round trip with the official client: tool_calls out, the tool's result back in, then the answer", async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Paris?" }];
    const first = await client.chat.completions.create({
      model: "xai/grok-4-fast",
      messages,
      tools: [weatherTool],
      tool_choice: "auto",
    });
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call).toMatchObject({ type: "function", function: { name: "get_weather" } });
    expect(JSON.parse((call as { function: { arguments: string } }).function.arguments)).toEqual({ city: "Paris" });
    expect(first.model).toBe("xai/grok-4-fast");
    // The provider received the tools and tool_choice as sent.
    expect(xai.requests.at(-1)!.body).toMatchObject({
      model: "grok-4-fast",
      tools: [weatherTool],
      tool_choice: "auto",
    });

    messages.push(first.choices[0]!.message, { role: "tool", tool_call_id: call.id, content: '{"celsius":18}' });
    const second = await client.chat.completions.create({ model: "xai/grok-4-fast", messages, tools: [weatherTool] });
    expect(second.choices[0]!.message.content).toBe("It is 18 degrees in Paris.");
    const sent = xai.requests.at(-1)!.body.messages as Array<Record<string, unknown>>;
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(sent[2]).toMatchObject({ tool_call_id: call.id, content: '{"celsius":18}' });
  });

  it("streams tool-call deltas as OpenAI sends them, which the client's stream helper reassembles", async () => {
    const stream = client.chat.completions.stream({
      model: "xai/grok-4-fast",
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [weatherTool],
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.finish_reason).toBe("tool_calls");
    const call = final.choices[0]!.message.tool_calls![0]! as {
      id: string;
      function: { name: string; arguments: string };
    };
    expect(call.id).toBe("call_fake_1");
    expect(call.function.name).toBe("get_weather");
    expect(JSON.parse(call.function.arguments)).toEqual({ city: "Paris" });
    expect(final.usage?.completion_tokens).toBe(12);
  });

  it("passes response_format, stop, seed, n and unknown fields on, and meters the tokens", async () => {
    await client.chat.completions.create({
      model: "xai/grok-4-fast",
      messages: [
        { role: "developer", content: "JSON only." },
        { role: "user", content: "hi" },
      ],
      response_format: {
        type: "json_schema",
        json_schema: { name: "greeting", strict: true, schema: { type: "object", properties: {} } },
      },
      stop: ["\n\n"],
      seed: 7,
      n: 1,
      max_completion_tokens: 50,
      // @ts-expect-error a field the client does not know is still sent, and passed on
      search_parameters: { mode: "off" },
    });
    expect(xai.requests.at(-1)!.body).toMatchObject({
      response_format: { type: "json_schema", json_schema: { name: "greeting", strict: true } },
      stop: ["\n\n"],
      seed: 7,
      n: 1,
      max_tokens: 50,
      search_parameters: { mode: "off" },
      // xai is not OpenAI: developer messages go as system
      messages: [
        { role: "system", content: "JSON only." },
        { role: "user", content: "hi" },
      ],
    });
    await gw.rt.meter.flush();
    const events = await gw.rt.db.prisma.usageEvent.findMany({ where: { route: "/v1/chat/completions" } });
    expect(events.every((e) => (e.promptTokens ?? 0) > 0)).toBe(true);
  });

  it("refuses, for a provider reached by translation, the options it cannot honour, naming each, and sends nothing", async () => {
    const before = anthropic.requests.length;
    const refused = client.chat.completions.create({
      model: "anthropic/claude-haiku-4-5",
      messages: [{ role: "user", content: "Weather?" }],
      tools: [weatherTool],
      logprobs: true,
      seed: 7,
    });
    await expect(refused).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/logprobs.*seed.*anthropic|seed.*logprobs.*anthropic/),
    });
    expect(anthropic.requests.length).toBe(before);
  });

  it("answers errors in OpenAI's shape on the OpenAI-compatible paths, and in the spec's forms elsewhere", async () => {
    const post = (path: string, body: unknown, key?: string) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify(body),
      });
    const noKey = await post("/v1/chat/completions", { model: "xai/grok-4", messages: [] });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({
      error: { message: expect.any(String), type: "authentication_error", param: null, code: null },
    });

    const { key } = await gw.key({ minute: 1 });
    const bad = await post("/v1/chat/completions", { model: "xai/grok-4", messages: [{ role: "robot" }] }, key);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ type: "invalid_request_error", param: "messages.0.role" });
    const limited = await post("/v1/embeddings", { model: "openai/x", input: "a" }, key);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeTruthy();
    expect(limited.headers.get("x-ratelimit-limit")).toBe("1");
    expect((await limited.json()).error).toMatchObject({ type: "rate_limit_error", code: "rate_limit_exceeded" });

    // The official client reads the message and type from it.
    await expect(
      new OpenAI({ apiKey: "sk_wrong", baseURL: `${server.url}/v1`, maxRetries: 0 }).models.list(),
    ).rejects.toMatchObject({ status: 401, type: "authentication_error" });
    // Elsewhere the spec's Form A stays.
    const spec = await post("/v1/llm/chat", { messages: [] });
    expect(typeof (await spec.json()).error).toBe("string");
  });

  it("sends images inline: a data: URL as it is, a URL only after the gateway fetched it under the proxy's rules", async () => {
    const png =
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const ask = (url: string) =>
      client.chat.completions.create({
        model: "xai/grok-4-fast",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "What is this?" },
              { type: "image_url", image_url: { url } },
            ],
          },
        ],
      });
    await ask(png);
    const sent = (xai.requests.at(-1)!.body.messages as Array<{ content: Array<Record<string, unknown>> }>)[0]!;
    expect(sent.content[1]).toEqual({ type: "image_url", image_url: { url: png } });

    // The attack: an image URL pointing into the gateway's own network is refused, never fetched or passed on.
    const before = xai.requests.length;
    await expect(ask("https://127.0.0.1:9/secret.png")).rejects.toMatchObject({ status: 403 });
    await expect(ask("https://169.254.169.254/latest/meta-data/iam.png")).rejects.toMatchObject({ status: 403 });
    await expect(ask("http://example.com/cat.png")).rejects.toMatchObject({ status: 400 });
    await expect(ask("data:text/html;base64,PGgxPmhpPC9oMT4=")).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/messages\.0\.content\.1\.image_url\.url/),
    });
    expect(xai.requests.length).toBe(before);
  });
});
