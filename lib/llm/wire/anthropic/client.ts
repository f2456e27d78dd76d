// A Messages client (/v1/messages) on a provider other than Anthropic: its request onto the chat pivot,
// and the chat answer (whole, or chunk by chunk) back as Anthropic's message and events. Pure
// functions: the call module does the I/O.
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import { GatewayError } from "../../../errors.ts";
import { continuesCall, reasoningText, type ChatSink } from "../openai-chat.ts";
import { sseFrame } from "../sse.ts";
import type {
  AnthropicEvent,
  AnthropicMessage,
  ChatChunk,
  ChatCompletion,
  ChatMessageParam,
  ChatRequest,
  ChatUsage,
  MessagesRequest,
} from "../types.ts";
import { streamError } from "./errors.ts";
import { imageUrl } from "./image.ts";
import { stopReason } from "./stop-reason.ts";
import { messageUsage } from "./usage.ts";

type BlockParam = Anthropic.Messages.ContentBlockParam;
type ContentBlock = Anthropic.Messages.ContentBlock;
type MessageParam = Anthropic.Messages.MessageParam;
type ToolResultBlock = Anthropic.Messages.ToolResultBlockParam;
type ToolUnion = Anthropic.Messages.ToolUnion;
type ChatPart = OpenAI.Chat.Completions.ChatCompletionContentPart;
type ChatTool = OpenAI.Chat.Completions.ChatCompletionTool;
type ChatToolCall = OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
type ChatToolCallDelta = OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall;
type Effort = OpenAI.ReasoningEffort;

/** Sampling options clients still send, though the SDK's request type no longer lists them. */
type MessagesBody = MessagesRequest & { temperature?: number | null; top_p?: number | null };

/** Collects what the provider cannot be asked for, so the caller hears about all of it in one 400. */
type Refuse = (what: string) => void;

/** Top-level fields carried over to the chat request. */
const TRANSLATED = new Set([
  "model",
  "max_tokens",
  "messages",
  "system",
  "stream",
  "tools",
  "tool_choice",
  "stop_sequences",
  "temperature",
  "top_p",
  "metadata",
  "thinking",
  "output_config",
]);
/** Hints about caching, capacity and speed: the answer is the same without them. */
const IGNORED = new Set(["cache_control", "service_tier", "speed"]);

/** The chat request asking `provider`'s model `modelId` what the Messages request asks; 400 for what it cannot carry. */
export function messagesToChat(body: MessagesRequest, modelId: string, provider: string): ChatRequest {
  const refused = new Set<string>();
  const refuse: Refuse = (what) => refused.add(what);
  for (const [key, value] of Object.entries(body)) {
    if (value != null && !TRANSLATED.has(key) && !IGNORED.has(key)) refuse(key);
  }
  const request = chatRequest(body, modelId, refuse);
  if (refused.size > 0) {
    const names = [...refused];
    throw new GatewayError(400, `${names.join(", ")} ${names.length > 1 ? "are" : "is"} not supported by ${provider}`);
  }
  return request;
}

function chatRequest(body: MessagesBody, modelId: string, refuse: Refuse): ChatRequest {
  const tools = (body.tools ?? []).map((t) => chatTool(t, refuse)).filter((t) => t !== undefined);
  const effort = body.output_config?.effort ?? (body.thinking && reasoningEffort(body.thinking, refuse));
  const format = body.output_config?.format;
  const request: ChatRequest = {
    model: modelId,
    max_tokens: body.max_tokens,
    messages: chatMessages(body, refuse),
    ...(tools.length > 0 && { tools }),
    ...(body.tool_choice && toolChoice(body.tool_choice)),
    ...(body.stop_sequences && { stop: body.stop_sequences }),
    ...(body.temperature != null && { temperature: body.temperature }),
    ...(body.top_p != null && { top_p: body.top_p }),
    ...(body.metadata?.user_id && { user: body.metadata.user_id }),
    ...(effort && { reasoning_effort: effort }),
    // Anthropic's structured output holds the answer to the schema, as a strict chat schema does.
    ...(format && {
      response_format: { type: "json_schema", json_schema: { name: "output", schema: format.schema, strict: true } },
    }),
  };
  return body.stream ? { ...request, stream: true, stream_options: { include_usage: true } } : request;
}

function chatMessages(body: MessagesBody, refuse: Refuse): ChatMessageParam[] {
  const system = body.system === undefined ? "" : systemText(body.system);
  const messages = body.messages.flatMap((m) => chatMessage(m, refuse));
  return system ? [{ role: "system", content: system }, ...messages] : messages;
}

function chatMessage(m: MessageParam, refuse: Refuse): ChatMessageParam[] {
  switch (m.role) {
    case "system":
      return [{ role: "system", content: systemText(m.content) }];
    case "assistant":
      return [assistantMessage(m.content, refuse)];
    case "user":
      return userMessages(m.content, refuse);
  }
}

/** System blocks are paragraphs of one prompt. */
function systemText(system: string | Anthropic.Messages.TextBlockParam[]): string {
  return typeof system === "string" ? system : system.map((b) => b.text).join("\n\n");
}

/** Tool results become `tool` messages, which chat wants straight after the assistant's calls; the rest follows. */
function userMessages(content: string | BlockParam[], refuse: Refuse): ChatMessageParam[] {
  if (typeof content === "string") return [{ role: "user", content }];
  const results: ChatMessageParam[] = [];
  const parts: ChatPart[] = [];
  for (const block of content) {
    if (block.type === "tool_result") results.push(toolMessage(block, refuse));
    else {
      const part = userPart(block, refuse);
      if (part) parts.push(part);
    }
  }
  return parts.length > 0 ? [...results, { role: "user", content: parts }] : results;
}

function userPart(block: BlockParam, refuse: Refuse): ChatPart | undefined {
  if (block.type === "text") return { type: "text", text: block.text };
  if (block.type !== "image") return void refuse(`${block.type} content blocks`);
  const url = imageUrl(block.source);
  // File ids name uploads to Anthropic's Files API, which no other provider can read.
  return url === undefined
    ? void refuse(`${block.source.type} image sources`)
    : { type: "image_url", image_url: { url } };
}

function toolMessage(block: ToolResultBlock, refuse: Refuse): ChatMessageParam {
  const text = toolResultText(block.content, refuse);
  return { role: "tool", tool_call_id: block.tool_use_id, content: block.is_error ? `Error: ${text}` : text };
}

/** A chat tool message holds text only. */
function toolResultText(content: ToolResultBlock["content"], refuse: Refuse): string {
  if (typeof content === "string" || content === undefined) return content ?? "";
  const texts: string[] = [];
  for (const block of content) {
    if (block.type === "text") texts.push(block.text);
    else refuse(`${block.type} blocks in tool_result`);
  }
  return texts.join("\n\n");
}

function assistantMessage(content: string | BlockParam[], refuse: Refuse): ChatMessageParam {
  if (typeof content === "string") return { role: "assistant", content };
  const texts: string[] = [];
  const calls: ChatToolCall[] = [];
  for (const block of content) {
    if (block.type === "text") texts.push(block.text);
    else if (block.type === "tool_use") calls.push(chatToolCall(block));
    // Earlier thinking is dropped: its signature only means something to Anthropic, and chat has
    // no field to carry it back in.
    else if (block.type !== "thinking" && block.type !== "redacted_thinking") refuse(`${block.type} content blocks`);
  }
  // Adjacent text blocks of one answer are continuations (split around citations), so no separator.
  const text = texts.length > 0 ? texts.join("") : calls.length > 0 ? null : "";
  return { role: "assistant", content: text, ...(calls.length > 0 && { tool_calls: calls }) };
}

function chatToolCall(block: Anthropic.Messages.ToolUseBlockParam): ChatToolCall {
  return {
    id: block.id,
    type: "function",
    function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
  };
}

/** Custom tools become functions; Anthropic's server tools run on Anthropic's side only. */
function chatTool(tool: ToolUnion, refuse: Refuse): ChatTool | undefined {
  if (!isCustomTool(tool)) return void refuse(`${tool.type} tools`);
  // Examples steer the model's calls; chat has nowhere to put them.
  if (tool.input_examples?.length) refuse("tool input_examples");
  return {
    type: "function",
    function: {
      name: tool.name,
      ...(tool.description !== undefined && { description: tool.description }),
      parameters: tool.input_schema,
      ...(tool.strict !== undefined && { strict: tool.strict }),
    },
  };
}

function isCustomTool(tool: ToolUnion): tool is Anthropic.Messages.Tool {
  return tool.type == null || tool.type === "custom";
}

function toolChoice(choice: Anthropic.Messages.ToolChoice): Pick<ChatRequest, "tool_choice" | "parallel_tool_calls"> {
  if (choice.type === "none") return { tool_choice: "none" };
  const tool_choice =
    choice.type === "auto"
      ? "auto"
      : choice.type === "any"
        ? "required"
        : { type: "function" as const, function: { name: choice.name } };
  return { tool_choice, ...(choice.disable_parallel_tool_use && { parallel_tool_calls: false }) };
}

/** Chat sets reasoning by effort, not by a token budget: budgets are bucketed. */
function reasoningEffort(thinking: Anthropic.Messages.ThinkingConfigParam, refuse: Refuse): Effort | undefined {
  switch (thinking.type) {
    case "disabled":
      return undefined;
    case "adaptive":
      return "medium";
    case "enabled":
      return thinking.budget_tokens <= 2048 ? "low" : thinking.budget_tokens <= 8192 ? "medium" : "high";
    default:
      return void refuse(`thinking type ${thinking.type}`);
  }
}

/** The Anthropic Message for a chat answer. */
export function chatToMessage(c: ChatCompletion, o: { id: string; model: string }): AnthropicMessage {
  const choice = c.choices[0];
  const message = choice?.message;
  const content: ContentBlock[] = [];
  const reasoning = reasoningText(message);
  if (reasoning) content.push({ type: "thinking", thinking: reasoning, signature: "" });
  const text = message?.content || message?.refusal;
  if (text) content.push({ type: "text", text, citations: null });
  for (const call of message?.tool_calls ?? []) {
    // Custom (free-form) tool calls answer custom chat tools, which messagesToChat never declares.
    if (call.type === "function")
      content.push(toolUse(call.id, call.function.name, parseInput(call.function.arguments)));
  }
  const stop = message?.refusal ? "refusal" : stopReason(choice?.finish_reason);
  return { ...emptyMessage(o), content, stop_reason: stop, usage: messageUsage(c.usage) };
}

function emptyMessage(o: { id: string; model: string }): AnthropicMessage {
  return {
    id: o.id,
    type: "message",
    role: "assistant",
    model: o.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: messageUsage(undefined),
  };
}

function toolUse(id: string, name: string, input: unknown): Anthropic.Messages.ToolUseBlock {
  return { type: "tool_use", id, name, input, caller: { type: "direct" } };
}

/** Models now and then write arguments that are not JSON; the call still stands, with no input. */
function parseInput(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return {};
  }
}

type BlockKind = { kind: "text" | "thinking" } | { kind: "tool_use"; call: number; id: string };
type OpenBlock = BlockKind & { index: number };

/** Turns a stream of chat chunks into Anthropic's stream events, one content block open at a time. */
export class ChatToMessageEvents {
  private started = false;
  /** Blocks started so far; the open one is always the last of them. */
  private blocks = 0;
  private open: OpenBlock | undefined;
  private finish: string | null = null;
  private refused = false;
  private usage: ChatUsage | undefined;

  constructor(private readonly o: { id: string; model: string }) {}

  push(chunk: ChatChunk): AnthropicEvent[] {
    const events = this.start();
    // Some providers repeat the running usage on every chunk: the last one is the total.
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) return events;
    const { delta } = choice;
    const reasoning = reasoningText(delta);
    if (reasoning) events.push(...this.append("thinking", reasoning));
    if (delta.content) events.push(...this.append("text", delta.content));
    if (delta.refusal) {
      this.refused = true;
      events.push(...this.append("text", delta.refusal));
    }
    for (const call of delta.tool_calls ?? []) events.push(...this.toolCall(call));
    if (choice.finish_reason) this.finish = choice.finish_reason;
    return events;
  }

  end(): AnthropicEvent[] {
    const u = messageUsage(this.usage);
    const stop = this.refused ? "refusal" : stopReason(this.finish);
    return [
      ...this.start(),
      ...this.close(),
      {
        type: "message_delta",
        delta: { stop_reason: stop, stop_sequence: null, stop_details: null, container: null },
        usage: {
          input_tokens: u.input_tokens,
          output_tokens: u.output_tokens,
          cache_read_input_tokens: u.cache_read_input_tokens,
          cache_creation_input_tokens: u.cache_creation_input_tokens,
          output_tokens_details: u.output_tokens_details,
          server_tool_use: null,
        },
      },
      { type: "message_stop" },
    ];
  }

  private start(): AnthropicEvent[] {
    if (this.started) return [];
    this.started = true;
    return [{ type: "message_start", message: emptyMessage(this.o) }];
  }

  private close(): AnthropicEvent[] {
    if (!this.open) return [];
    const index = this.open.index;
    this.open = undefined;
    return [{ type: "content_block_stop", index }];
  }

  private append(kind: "text" | "thinking", text: string): AnthropicEvent[] {
    const start: ContentBlock =
      kind === "text" ? { type: "text", text: "", citations: null } : { type: "thinking", thinking: "", signature: "" };
    const events = this.open?.kind === kind ? [] : this.begin({ kind }, start);
    const delta =
      kind === "text" ? { type: "text_delta" as const, text } : { type: "thinking_delta" as const, thinking: text };
    return [...events, { type: "content_block_delta", index: this.blocks - 1, delta }];
  }

  /** A call's first delta carries its id (and a new index); the ones after carry argument fragments. */
  private toolCall(call: ChatToolCallDelta): AnthropicEvent[] {
    const open = this.open;
    const same = open?.kind === "tool_use" && continuesCall(call, open.call, open.id);
    // A provider that leaves the id out still gets one, so the client can answer the call.
    const id = call.id ?? `${this.o.id}_tool_${call.index}`;
    const events = same
      ? []
      : this.begin({ kind: "tool_use", call: call.index, id }, toolUse(id, call.function?.name ?? "", {}));
    const fragment = call.function?.arguments;
    if (!fragment) return events;
    const delta = { type: "input_json_delta" as const, partial_json: fragment };
    return [...events, { type: "content_block_delta", index: this.blocks - 1, delta }];
  }

  private begin(block: BlockKind, start: ContentBlock): AnthropicEvent[] {
    const events = this.close();
    const index = this.blocks++;
    this.open = { ...block, index };
    return [...events, { type: "content_block_start", index, content_block: start }];
  }
}

// The SDK's types require fields Anthropic's API leaves out when they have nothing to say; clients that
// validate the wire (the AI SDK) refuse null where they expect a list or an object, so those go unsent.
const LEFT_OUT_WHEN_NULL = new Set([
  "citations",
  "stop_details",
  "container",
  "diagnostics",
  "output_tokens_details",
  "cache_creation",
  "inference_geo",
  "server_tool_use",
  "service_tier",
  "speed",
]);

/** A message or stream event as JSON, as Anthropic's API writes it. */
export function messageJson(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => (v === null && LEFT_OUT_WHEN_NULL.has(key) ? undefined : v));
}

/** Chat chunks as Anthropic's named stream events, for a Messages client. */
export function messageEventSink(o: { id: string; model: string }): ChatSink {
  const events = new ChatToMessageEvents(o);
  const frames = (list: AnthropicEvent[]) => list.map((e) => sseFrame(messageJson(e), e.type));
  return {
    push: (chunk) => frames(events.push(chunk)),
    end: () => frames(events.end()),
    error: (message) => [sseFrame(streamError(message), "error")],
  };
}
