import { Hono, type Context } from "hono";
import { streamSSE } from "hono/streaming";
import { silentMp3 } from "./speech.ts";
import { listen } from "../support/listen.ts";

export type FakeLlm = {
  url: string;
  requests: Array<{ path: string; body: Record<string, unknown>; headers: Record<string, string> }>;
  /** How many streams the client closed before they finished. */
  abandoned: () => number;
  close(): Promise<void>;
};

export type FakeLlmOptions = {
  key: string;
  /** The reply, streamed word by word. */
  reply?: string;
  /** Delay between streamed words. */
  delayMs?: number;
  /** Status to answer every request with instead (401, 429, 500...). */
  failWith?: number;
  /** Token counts to report instead of the computed ones (what a misbehaving provider might claim). */
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Each chat completion waits for this before answering (tests that need a job to stay running). */
  hold?: () => Promise<void>;
  /**
   * When the request offers tools and holds no tool result yet, call this tool (answered as the wire
   * does: OpenAI's `tool_calls` with finish_reason "tool_calls", Anthropic's `tool_use` block, each
   * streamed with the arguments in fragments); after a tool result, answer `reply`. A tool the request
   * forces is called by its name.
   */
  toolCall?: { name: string; arguments: Record<string, unknown> };
  /** Anthropic: the server tools' uses to report in `usage.server_tool_use` (web_search_requests…). */
  serverToolUse?: Record<string, number>;
};

async function start(app: Hono, requests: FakeLlm["requests"], abandoned: () => number): Promise<FakeLlm> {
  const { url, close } = await listen(app.fetch);
  return {
    url,
    requests,
    abandoned,
    close,
  };
}

const words = (text: string) => text.split(/(?<= )/);

/** A stand-in embedding: words hashed into 32 dimensions, so texts sharing words point the same way. */
export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(32).fill(0);
  for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 0;
    for (const ch of w) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    v[h % 32]! += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** OpenAI Chat Completions (`POST {base}/chat/completions`), streaming with `stream_options.include_usage`. */
export async function startFakeOpenAICompatible(options: FakeLlmOptions & { basePath?: string }): Promise<FakeLlm> {
  const requests: FakeLlm["requests"] = [];
  let abandoned = 0;
  const app = new Hono();
  const authorised = (c: { req: { header(name: string): string | undefined } }) =>
    c.req.header("authorization") === `Bearer ${options.key}`;
  const denied = {
    error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" },
  };
  app.post(`${options.basePath ?? "/v1"}/images/generations`, async (c) => {
    const body = await c.req.json();
    requests.push({ path: c.req.path, body, headers: Object.fromEntries(c.req.raw.headers) });
    if (!authorised(c)) return c.json(denied, 401);
    if (typeof body.prompt !== "string" || !body.prompt)
      return c.json({ error: { message: "prompt is required", type: "invalid_request_error" } }, 400);
    return c.json({
      created: 1_760_000_000,
      data: [
        {
          url: `https://images.example/${encodeURIComponent(body.model)}/1.png`,
          revised_prompt: `A detailed ${body.prompt}`,
        },
      ],
    });
  });
  app.post(`${options.basePath ?? "/v1"}/audio/transcriptions`, async (c) => {
    const form = await c.req.parseBody();
    const file = form.file as File;
    requests.push({
      path: c.req.path,
      body: {
        model: form.model,
        language: form.language,
        prompt: form.prompt,
        response_format: form.response_format,
        filename: file?.name,
        size: file?.size,
      },
      headers: Object.fromEntries(c.req.raw.headers),
    });
    if (!authorised(c)) return c.json(denied, 401);
    return c.json({
      task: "transcribe",
      language: form.language ?? "english",
      duration: 2.5,
      text: "Hello from the recording.",
      segments: [],
    });
  });
  app.post(`${options.basePath ?? "/v1"}/audio/speech`, async (c) => {
    const body = await c.req.json();
    requests.push({ path: c.req.path, body, headers: Object.fromEntries(c.req.raw.headers) });
    if (!authorised(c)) return c.json(denied, 401);
    return c.body(new Uint8Array(silentMp3()), 200, { "content-type": "audio/mpeg" });
  });
  app.post(`${options.basePath ?? "/v1"}/embeddings`, async (c) => {
    const body = await c.req.json();
    requests.push({ path: c.req.path, body, headers: Object.fromEntries(c.req.raw.headers) });
    if (c.req.header("authorization") !== `Bearer ${options.key}`)
      return c.json({ error: { message: "Incorrect API key provided", type: "invalid_request_error" } }, 401);
    const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
    const tokens = inputs.reduce((n, t) => n + (t.match(/\S+/g)?.length ?? 0), 0);
    return c.json({
      object: "list",
      data: inputs.map((t, index) => ({ object: "embedding", index, embedding: fakeEmbedding(t) })),
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  });
  app.post(`${options.basePath ?? "/v1"}/chat/completions`, async (c) => {
    const body = await c.req.json();
    requests.push({ path: c.req.path, body, headers: Object.fromEntries(c.req.raw.headers) });
    await options.hold?.();
    if (c.req.header("authorization") !== `Bearer ${options.key}`)
      return c.json(
        { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } },
        401,
      );
    if (options.failWith)
      return c.json(
        { error: { message: "failure requested by test", type: "server_error" } },
        options.failWith as 500,
        options.failWith === 429 ? { "retry-after": "7" } : {},
      );
    const reply = options.reply ?? "Hello from the fake model.";
    const promptTokens = options.usage?.prompt_tokens ?? JSON.stringify(body.messages).length >> 2;
    const completionTokens = options.usage?.completion_tokens ?? words(reply).length;
    // The tier asked for is the tier served, as OpenAI answers it ("auto" is served as "default").
    const asked = typeof body.service_tier === "string" ? body.service_tier : undefined;
    const tier = asked === "auto" ? "default" : asked;
    const base = {
      id: "chatcmpl-fake",
      created: 1_760_000_000,
      model: `${body.model}-2026`,
      ...(tier && { service_tier: tier }),
    };
    const messages = body.messages as Array<{ role: string }>;
    // A forced function is called by name (the AI SDK's JSON tool, say), with toolCall's arguments.
    const forced = body.tool_choice?.type === "function" ? (body.tool_choice.function.name as string) : undefined;
    if (options.toolCall && body.tools?.length && (forced || !messages.some((m) => m.role === "tool")))
      return answerToolCall(
        c,
        body,
        base,
        { ...options.toolCall, name: forced ?? options.toolCall.name },
        promptTokens,
      );
    if (!body.stream) {
      return c.json({
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
      });
    }
    return streamSSE(c, async (stream) => {
      let finished = false;
      stream.onAbort(() => {
        if (!finished) abandoned += 1;
      });
      await stream.writeSSE({
        data: JSON.stringify({
          ...base,
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
        }),
      });
      for (const w of words(reply)) {
        if (stream.aborted) return;
        await sleep(options.delayMs ?? 1);
        await stream.writeSSE({
          data: JSON.stringify({
            ...base,
            object: "chat.completion.chunk",
            choices: [{ index: 0, delta: { content: w }, finish_reason: null }],
          }),
        });
      }
      await stream.writeSSE({
        data: JSON.stringify({
          ...base,
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
        }),
      });
      await stream.writeSSE({
        data: JSON.stringify({
          ...base,
          object: "chat.completion.chunk",
          choices: [],
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: completionTokens,
            total_tokens: promptTokens + completionTokens,
          },
        }),
      });
      await stream.writeSSE({ data: "[DONE]" });
      finished = true;
    });
  });
  return start(app, requests, () => abandoned);
}

/** A tool call in OpenAI's shape: whole in a completion, or as deltas (id and name first, arguments in fragments). */
function answerToolCall(
  c: Context,
  body: { stream?: boolean; stream_options?: { include_usage?: boolean } },
  base: Record<string, unknown>,
  call: { name: string; arguments: Record<string, unknown> },
  promptTokens: number,
) {
  const args = JSON.stringify(call.arguments);
  const usage = { prompt_tokens: promptTokens, completion_tokens: 12, total_tokens: promptTokens + 12 };
  const id = "call_fake_1";
  if (!body.stream)
    return c.json({
      ...base,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{ id, type: "function", function: { name: call.name, arguments: args } }],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage,
    });
  return streamSSE(c, async (stream) => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      stream.writeSSE({
        data: JSON.stringify({
          ...base,
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta, finish_reason: finish }],
        }),
      });
    await chunk({
      role: "assistant",
      content: null,
      tool_calls: [{ index: 0, id, type: "function", function: { name: call.name, arguments: "" } }],
    });
    const half = Math.ceil(args.length / 2);
    for (const fragment of [args.slice(0, half), args.slice(half)])
      await chunk({ tool_calls: [{ index: 0, function: { arguments: fragment } }] });
    await chunk({}, "tool_calls");
    if (body.stream_options?.include_usage)
      await stream.writeSSE({ data: JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage }) });
    await stream.writeSSE({ data: "[DONE]" });
  });
}

/** Anthropic Messages (`POST /v1/messages`), with its named streaming events. */
export async function startFakeAnthropic(options: FakeLlmOptions): Promise<FakeLlm> {
  const requests: FakeLlm["requests"] = [];
  let abandoned = 0;
  const app = new Hono();
  app.post("/v1/messages", async (c) => {
    const body = await c.req.json();
    requests.push({ path: c.req.path, body, headers: Object.fromEntries(c.req.raw.headers) });
    if (c.req.header("x-api-key") !== options.key)
      return c.json({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }, 401);
    if (options.failWith)
      return c.json(
        { type: "error", error: { type: "api_error", message: "failure requested by test" } },
        options.failWith as 500,
      );
    const reply = options.reply ?? "Hello from the fake Claude.";
    const usage = {
      input_tokens: JSON.stringify(body.messages).length >> 2,
      output_tokens: words(reply).length,
      ...(options.serverToolUse && { server_tool_use: options.serverToolUse }),
    };
    const message = {
      id: "msg_fake",
      type: "message",
      role: "assistant",
      model: body.model,
      stop_reason: "end_turn",
      stop_sequence: null,
    };
    const call = toolUse(body, options);
    if (call) return answerToolUse(c, body, message, call, usage.input_tokens);
    if (!body.stream) return c.json({ ...message, content: [{ type: "text", text: reply }], usage });
    return streamSSE(c, async (stream) => {
      let finished = false;
      stream.onAbort(() => {
        if (!finished) abandoned += 1;
      });
      const send = (event: string, data: unknown) => stream.writeSSE({ event, data: JSON.stringify(data) });
      await send("message_start", {
        type: "message_start",
        message: {
          ...message,
          content: [],
          stop_reason: null,
          usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
        },
      });
      await send("content_block_start", {
        type: "content_block_start",
        index: 0,
        content_block: { type: "text", text: "" },
      });
      for (const w of words(reply)) {
        if (stream.aborted) return;
        await sleep(options.delayMs ?? 1);
        await send("content_block_delta", {
          type: "content_block_delta",
          index: 0,
          delta: { type: "text_delta", text: w },
        });
      }
      await send("content_block_stop", { type: "content_block_stop", index: 0 });
      await send("message_delta", {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens: usage.output_tokens, server_tool_use: usage.server_tool_use },
      });
      await send("message_stop", { type: "message_stop" });
      finished = true;
    });
  });
  return start(app, requests, () => abandoned);
}

type AnthropicBody = {
  stream?: boolean;
  tools?: Array<{ name: string }>;
  tool_choice?: { type: string; name?: string };
  messages: Array<{ role: string; content: unknown }>;
};

/**
 * The tool Claude calls: the one `tool_choice` forces (with `toolCall`'s arguments, or `{answer: reply}`),
 * else `toolCall` when tools are offered and no tool result has come back yet.
 */
function toolUse(body: AnthropicBody, options: FakeLlmOptions): { name: string; input: unknown } | undefined {
  if (body.tool_choice?.type === "tool")
    return { name: body.tool_choice.name!, input: options.toolCall?.arguments ?? { answer: options.reply ?? "" } };
  const answered = body.messages.some(
    (m) => Array.isArray(m.content) && m.content.some((b: { type?: string }) => b.type === "tool_result"),
  );
  if (options.toolCall && body.tools?.length && !answered)
    return { name: options.toolCall.name, input: options.toolCall.arguments };
  return undefined;
}

/** A tool_use in Anthropic's shape: a text block then the call, or streamed with its input in input_json_delta fragments. */
function answerToolUse(
  c: Context,
  body: AnthropicBody,
  message: Record<string, unknown>,
  call: { name: string; input: unknown },
  inputTokens: number,
) {
  const id = "toolu_fake_1";
  const usage = { input_tokens: inputTokens, output_tokens: 15 };
  const preface = "Let me check.";
  if (!body.stream)
    return c.json({
      ...message,
      stop_reason: "tool_use",
      content: [
        { type: "text", text: preface },
        { type: "tool_use", id, name: call.name, input: call.input },
      ],
      usage,
    });
  return streamSSE(c, async (stream) => {
    const send = (event: string, data: Record<string, unknown>) =>
      stream.writeSSE({ event, data: JSON.stringify({ type: event, ...data }) });
    await send("message_start", {
      message: { ...message, content: [], stop_reason: null, usage: { input_tokens: inputTokens, output_tokens: 1 } },
    });
    await send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    await send("content_block_delta", { index: 0, delta: { type: "text_delta", text: preface } });
    await send("content_block_stop", { index: 0 });
    await send("content_block_start", {
      index: 1,
      content_block: { type: "tool_use", id, name: call.name, input: {} },
    });
    const args = JSON.stringify(call.input);
    const half = Math.ceil(args.length / 2);
    for (const fragment of [args.slice(0, half), args.slice(half)])
      await send("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: fragment } });
    await send("content_block_stop", { index: 1 });
    await send("message_delta", {
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { output_tokens: 15 },
    });
    await send("message_stop", {});
  });
}
