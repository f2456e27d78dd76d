import http from "node:http";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import Anthropic from "@anthropic-ai/sdk";
import { generateObject, generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startFakeAnthropic, startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { listen, type Listening } from "./support/listen.ts";

// One agent loop per client, unchanged, against every provider behind the gateway: each provider is a
// fake speaking its real wire (Anthropic's Messages; OpenAI's Chat Completions at the path each
// OpenAI-compatible provider serves it, Gemini's /v1beta/openai included) that calls the tool while no
// result has come back, then answers with the weather.
const PROVIDERS = [
  { name: "xai", model: "grok-4-fast", basePath: "/v1", env: "XAI_API_KEY" },
  { name: "openai", model: "gpt-4.1-mini", basePath: "/v1", env: "OPENAI_API_KEY" },
  { name: "anthropic", model: "claude-haiku-4-5", basePath: "", env: "ANTHROPIC_API_KEY" },
  { name: "gemini", model: "gemini-2.5-flash", basePath: "/v1beta/openai", env: "GEMINI_API_KEY" },
  { name: "mistral", model: "mistral-small-latest", basePath: "/v1", env: "MISTRAL_API_KEY" },
  { name: "groq", model: "llama-3.3-70b-versatile", basePath: "/openai/v1", env: "GROQ_API_KEY" },
  { name: "cohere", model: "command-a-03-2025", basePath: "/compatibility/v1", env: "COHERE_API_KEY" },
  { name: "perplexity", model: "sonar", basePath: "", env: "PERPLEXITY_API_KEY" },
  { name: "ollama", model: "llama3.2", basePath: "/v1", env: undefined },
] as const;

const REPLY = "It is 18 degrees in Paris.";
const WEATHER = { celsius: 18 };
const toolCall = { name: "get_weather", arguments: { city: "Paris" } };
const weatherParameters = {
  type: "object" as const,
  properties: { city: { type: "string" as const } },
  required: ["city"],
};

/** The tool result the provider last received, however its wire carries it. */
function lastToolResult(fake: FakeLlm): unknown {
  const messages = fake.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
  for (const m of messages) {
    if (m.role === "tool") return JSON.parse(m.content as string);
    if (Array.isArray(m.content))
      for (const block of m.content as Array<{ type: string; content: unknown }>)
        if (block.type === "tool_result")
          return JSON.parse(
            typeof block.content === "string"
              ? block.content
              : (block.content as Array<{ text: string }>).map((b) => b.text).join(""),
          );
  }
  return undefined;
}

describe("agent loops written for the OpenAI, Anthropic and AI SDKs run unchanged on every provider", () => {
  let gw: TestGateway;
  let server: Listening;
  let key: string;
  let openai: OpenAI;
  let anthropic: Anthropic;
  const fakes = new Map<string, FakeLlm>();
  const saved = { ...process.env };

  beforeAll(async () => {
    for (const p of PROVIDERS) {
      const fake =
        p.name === "anthropic"
          ? await startFakeAnthropic({ key: "k-anthropic", reply: REPLY, toolCall })
          : await startFakeOpenAICompatible({
              key: p.env ? `k-${p.name}` : "ollama",
              reply: REPLY,
              toolCall,
              basePath: p.basePath,
            });
      fakes.set(p.name, fake);
      if (p.env) process.env[p.env] = `k-${p.name}`;
      process.env[`UPSTREAM_${p.name.toUpperCase()}_URL`] = fake.url;
    }
    gw = await startTestGateway();
    // Every loop on every provider from one key: more than the default 100 requests a minute.
    key = (await gw.key({ minute: 100_000 })).key;
    server = await listen(http.createServer(gw.app.node));
    openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: key, baseURL: server.url, maxRetries: 0 });
  });
  afterAll(async () => {
    process.env = saved;
    await server?.close();
    await gw?.close();
    await Promise.all([...fakes.values()].map((f) => f.close()));
  });

  describe.each(PROVIDERS)("$name", (p) => {
    const model = `${p.name}/${p.model}`;
    const fake = () => fakes.get(p.name)!;

    it("OpenAI SDK, Chat Completions: call the tool, send its result, get the answer (whole, then streamed)", async () => {
      for (const stream of [false, true]) {
        const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Paris?" }];
        const tools: OpenAI.Chat.ChatCompletionTool[] = [
          { type: "function", function: { name: "get_weather", parameters: weatherParameters } },
        ];
        for (let turn = 0; turn < 4; turn++) {
          const completion = stream
            ? await openai.chat.completions.stream({ model, messages, tools }).finalChatCompletion()
            : await openai.chat.completions.create({ model, messages, tools });
          const choice = completion.choices[0]!;
          expect(completion.model).toBe(model);
          if (choice.finish_reason !== "tool_calls") {
            expect(choice.message.content).toBe(REPLY);
            expect(turn).toBe(1);
            break;
          }
          messages.push(choice.message);
          for (const call of choice.message.tool_calls ?? []) {
            if (call.type !== "function") continue;
            expect(JSON.parse(call.function.arguments)).toEqual({ city: "Paris" });
            messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(WEATHER) });
          }
        }
        expect(lastToolResult(fake())).toEqual(WEATHER);
      }
    });

    it("Anthropic SDK, Messages: tool_use, tool_result, then the answer (whole, then streamed)", async () => {
      for (const stream of [false, true]) {
        const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Weather in Paris?" }];
        const tools: Anthropic.Tool[] = [{ name: "get_weather", input_schema: weatherParameters }];
        for (let turn = 0; turn < 4; turn++) {
          const params = { model, max_tokens: 512, messages, tools };
          const message = stream
            ? await anthropic.messages.stream(params).finalMessage()
            : await anthropic.messages.create(params);
          expect(message.model).toBe(model);
          expect(message.usage.output_tokens).toBeGreaterThan(0);
          if (message.stop_reason !== "tool_use") {
            expect(message.content.find((b) => b.type === "text")).toMatchObject({ text: REPLY });
            expect(turn).toBe(1);
            break;
          }
          messages.push({ role: "assistant", content: message.content });
          const results: Anthropic.ToolResultBlockParam[] = [];
          for (const block of message.content)
            if (block.type === "tool_use") {
              expect(block.input).toEqual({ city: "Paris" });
              results.push({ type: "tool_result", tool_use_id: block.id, content: JSON.stringify(WEATHER) });
            }
          messages.push({ role: "user", content: results });
        }
        expect(lastToolResult(fake())).toEqual(WEATHER);
      }
    });

    it("OpenAI SDK, Responses: function_call, function_call_output with previous_response_id, then the answer (whole, then streamed)", async () => {
      for (const stream of [false, true]) {
        const tools: OpenAI.Responses.Tool[] = [
          { type: "function", name: "get_weather", parameters: weatherParameters, strict: false },
        ];
        let input: OpenAI.Responses.ResponseInput | string = "Weather in Paris?";
        let previous: string | undefined;
        for (let turn = 0; turn < 4; turn++) {
          const params = { model, input, tools, previous_response_id: previous };
          const response: OpenAI.Responses.Response = stream
            ? await openai.responses.stream(params).finalResponse()
            : await openai.responses.create({ ...params, stream: false });
          expect(response.model).toBe(model);
          const calls = response.output.filter(
            (o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === "function_call",
          );
          if (!calls.length) {
            expect(response.output_text).toBe(REPLY);
            expect(turn).toBe(1);
            expect(response.usage?.output_tokens).toBeGreaterThan(0);
            break;
          }
          input = calls.map((call) => {
            expect(JSON.parse(call.arguments)).toEqual({ city: "Paris" });
            return { type: "function_call_output" as const, call_id: call.call_id, output: JSON.stringify(WEATHER) };
          });
          previous = response.id;
        }
        expect(lastToolResult(fake())).toEqual(WEATHER);
        // The earlier turns came from the stored response: the question reached the provider again.
        expect(JSON.stringify(fake().requests.at(-1)!.body.messages)).toContain("Weather in Paris?");
      }
    });

    it("AI SDK: generateText and streamText with an executed tool, over Chat Completions, Responses and Messages", async () => {
      const gateway = { apiKey: key, baseURL: `${server.url}/v1` };
      const models = {
        chat: createOpenAI(gateway).chat(model),
        responses: createOpenAI(gateway).responses(model),
        messages: createAnthropic(gateway)(model),
      };
      for (const [surface, m] of Object.entries(models)) {
        const tools = {
          get_weather: tool({
            description: "Current weather in a city",
            inputSchema: z.object({ city: z.string() }),
            execute: async ({ city }) => (city === "Paris" ? WEATHER : { celsius: null }),
          }),
        };
        const whole = await generateText({ model: m, prompt: "Weather in Paris?", tools, stopWhen: stepCountIs(4) });
        expect(whole.text, surface).toBe(REPLY);
        expect(whole.steps.length, surface).toBe(2);
        expect(lastToolResult(fake()), surface).toEqual(WEATHER);

        const streamed = streamText({ model: m, prompt: "Weather in Paris?", tools, stopWhen: stepCountIs(4) });
        expect(await streamed.text, surface).toBe(REPLY);
        expect((await streamed.steps).length, surface).toBe(2);
      }
    });
  });

  it("answers /v1/messages errors in Anthropic's shape, which the Claude SDK's error classes read", async () => {
    const wrong = new Anthropic({ apiKey: "sk_wrong", baseURL: server.url, maxRetries: 0 });
    const params = { model: "xai/grok-4-fast", max_tokens: 64, messages: [{ role: "user" as const, content: "hi" }] };
    await expect(wrong.messages.create(params)).rejects.toBeInstanceOf(Anthropic.AuthenticationError);

    // An option the provider behind cannot honour is refused by name, and nothing reaches the provider.
    const before = fakes.get("xai")!.requests.length;
    // top_k is Anthropic's own sampling option (its SDK's types no longer list it).
    const refused = anthropic.messages.create({ ...params, top_k: 5 } as Anthropic.MessageCreateParamsNonStreaming);
    await expect(refused).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await expect(refused).rejects.toMatchObject({
      status: 400,
      error: { type: "error", error: { type: "invalid_request_error", message: expect.stringMatching(/top_k.*xai/) } },
    });
    expect(fakes.get("xai")!.requests.length).toBe(before);

    // The gateway's limits answer as Anthropic's do: 429, rate_limit_error, with Retry-After.
    const limited = new Anthropic({ apiKey: (await gw.key({ minute: 1 })).key, baseURL: server.url, maxRetries: 0 });
    await limited.messages.create(params);
    const second = await limited.messages.create(params).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(Anthropic.RateLimitError);
    expect((second as InstanceType<typeof Anthropic.RateLimitError>).headers.get("retry-after")).toBeTruthy();
  });

  it("keeps each key's responses to itself: GET and previous_response_id for the key that made them, DELETE, store: false", async () => {
    const model = "xai/grok-4-fast";
    const made = await openai.responses.create({ model, input: "Say something." });
    expect(made.output_text).toBe(REPLY);
    expect((await openai.responses.retrieve(made.id)).output_text).toBe(REPLY);

    const other = new OpenAI({ apiKey: (await gw.key()).key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(other.responses.retrieve(made.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      other.responses.create({ model, input: "And then?", previous_response_id: made.id }),
    ).rejects.toMatchObject({ status: 404, message: expect.stringContaining(made.id) });

    await openai.responses.delete(made.id);
    await expect(openai.responses.retrieve(made.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);

    const unstored = await openai.responses.create({ model, input: "Forget this.", store: false });
    await expect(openai.responses.retrieve(unstored.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("refuses on /v1/responses what no provider behind it runs (built-in tools, background), naming each", async () => {
    const before = fakes.get("xai")!.requests.length;
    const refused = openai.responses.create({
      model: "xai/grok-4-fast",
      input: "Search the web",
      tools: [{ type: "web_search" }],
      background: true,
    });
    await expect(refused).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/background/),
    });
    await expect(refused).rejects.toMatchObject({ message: expect.stringMatching(/web_search/) });
    expect(fakes.get("xai")!.requests.length).toBe(before);
  });

  it("AI SDK generateObject gets a schema-shaped object through each surface and provider kind", async () => {
    const json = { city: "Paris", celsius: 18 };
    const [xai, claude] = await Promise.all([
      startFakeOpenAICompatible({
        key: "k-json",
        reply: JSON.stringify(json),
        toolCall: { name: "json", arguments: json },
      }),
      startFakeAnthropic({ key: "k-json", reply: JSON.stringify(json), toolCall: { name: "json", arguments: json } }),
    ]);
    const before = { ...process.env };
    Object.assign(process.env, {
      XAI_API_KEY: "k-json",
      UPSTREAM_XAI_URL: xai.url,
      ANTHROPIC_API_KEY: "k-json",
      UPSTREAM_ANTHROPIC_URL: claude.url,
    });
    try {
      const gateway = { apiKey: key, baseURL: `${server.url}/v1` };
      const schema = jsonSchema<{ city: string; celsius: number }>({
        type: "object",
        properties: { city: { type: "string" }, celsius: { type: "number" } },
        required: ["city", "celsius"],
        additionalProperties: false,
      });
      for (const model of ["xai/grok-4-fast", "anthropic/claude-haiku-4-5"])
        for (const m of [
          createOpenAI(gateway).chat(model),
          createOpenAI(gateway).responses(model),
          createAnthropic(gateway)(model),
        ]) {
          const { object } = await generateObject({ model: m, schema, prompt: "Weather in Paris as JSON" });
          expect(object, `${model} via ${m.provider}`).toEqual(json);
        }
      // OpenAI's json_schema reached the OpenAI-wire provider as sent.
      expect(xai.requests.some((r) => (r.body.response_format as { type?: string })?.type === "json_schema")).toBe(
        true,
      );
    } finally {
      process.env = before;
      await Promise.all([xai.close(), claude.close()]);
    }
  });
});
