// OpenAI's Chat Completions spoken to an Anthropic upstream: the request becomes a Messages API
// request and the answer (whole or streamed) becomes a chat completion again. Pure translation, no
// I/O. An option Anthropic has no equivalent for is refused with a 400 rather than dropped, so a
// client never gets an answer that quietly ignored what it asked for.
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import { GatewayError } from "../../../errors.ts";
import { streamFailure, type EventTranslator } from "../sse.ts";
import { usageFrom, type ChatSink } from "../openai-chat.ts";
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
import { imageBlock } from "./image.ts";
import { finishReason, type FinishReason } from "./stop-reason.ts";
import { anthropicUsage, type UsageCounts } from "./usage.ts";

type Block = Anthropic.Messages.ContentBlockParam;
type Turn = { role: "user" | "assistant"; content: Block[] };
type InputSchema = Anthropic.Messages.Tool.InputSchema;
type TextPart = OpenAI.Chat.Completions.ChatCompletionContentPartText;
type UserPart = OpenAI.Chat.Completions.ChatCompletionContentPart;
type AssistantParam = OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam;
type ToolCallParam = OpenAI.Chat.Completions.ChatCompletionMessageToolCall;
type ToolParam = OpenAI.Chat.Completions.ChatCompletionToolMessageParam;
// Anthropic's thinking comes back as `reasoning_content`, the field other OpenAI-compatible gateways use.
type AnswerMessage = ChatCompletion["choices"][number]["message"] & { reasoning_content?: string };
type Delta = ChatChunk["choices"][number]["delta"] & { reasoning_content?: string };

/** What a translated answer is labelled with; `jsonTool` is the forced tool standing in for response_format. */
export type AnswerOptions = { id: string; model: string; created: number; jsonTool?: string };

// Anthropic requires max_tokens; OpenAI's default is "as many as fit", so this is a compromise.
const DEFAULT_MAX_TOKENS = 4096;
const JSON_TOOL_DESCRIPTION = "Respond with JSON matching this schema";

/** Options that are translated, or that have no bearing on the answer. */
const HANDLED = new Set([
  "model",
  "messages",
  "stream",
  "stream_options",
  "max_tokens",
  "max_completion_tokens",
  "temperature",
  "top_p",
  "stop",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "response_format",
  "reasoning_effort",
  "user",
  "safety_identifier",
]);

/** Options Anthropic lacks, harmless only at the value that leaves the answer as it is. */
const NEUTRAL = new Map<string, unknown>([
  ["n", 1],
  ["logprobs", false],
  ["store", false],
  ["service_tier", "auto"],
  ["frequency_penalty", 0],
  ["presence_penalty", 0],
]);

// Anthropic's budgets start at 1024; "xhigh" and "max" have no budget that fits every model's output limit.
const THINKING_BUDGET = new Map<string, number>([
  ["minimal", 1024],
  ["low", 1024],
  ["medium", 4096],
  ["high", 16384],
]);

const notSupported = (what: string) => `${what} is not supported by anthropic`;
const unsupported = (what: string) => new GatewayError(400, notSupported(what));

/** The Messages API request for a chat request; `jsonTool` names the tool forced for response_format. */
export function chatToAnthropic(body: ChatRequest, modelId: string): { request: MessagesRequest; jsonTool?: string } {
  const problems = optionProblems(body);
  if (problems.length > 0) throw new GatewayError(400, problems.join("; "));
  const { system, turns } = translateMessages(body.messages);
  const jsonTool = jsonOutputTool(body.response_format);
  const tools = jsonTool ? [jsonTool] : (body.tools ?? []).map(translateTool);
  const toolChoice = jsonTool ? { type: "tool" as const, name: jsonTool.name } : translateToolChoice(body);
  const budget = THINKING_BUDGET.get(body.reasoning_effort ?? "");
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? DEFAULT_MAX_TOKENS;
  const userId = body.safety_identifier ?? body.user;
  const request: Anthropic.Messages.MessageCreateParamsNonStreaming = {
    model: modelId,
    // Thinking tokens count against max_tokens, so the budget comes on top of what the client asked for.
    max_tokens: maxTokens + (budget ?? 0),
    messages: turns,
    ...(system.length > 0 && { system: system.join("\n\n") }),
    ...(tools.length > 0 && { tools }),
    ...(tools.length > 0 && toolChoice && { tool_choice: toolChoice }),
    ...(body.stop != null && { stop_sequences: typeof body.stop === "string" ? [body.stop] : body.stop }),
    ...(body.temperature != null && { temperature: body.temperature }),
    ...(body.top_p != null && { top_p: body.top_p }),
    ...(userId && { metadata: { user_id: userId } }),
    ...(budget !== undefined && { thinking: { type: "enabled", budget_tokens: budget } }),
  };
  return { request: body.stream ? { ...request, stream: true } : request, jsonTool: jsonTool?.name };
}

/** Every reason to refuse the request's options, so the client learns them all in one answer. */
function optionProblems(body: ChatRequest): string[] {
  const refused = Object.entries(body)
    .filter(([key, value]) => value != null && !HANDLED.has(key) && NEUTRAL.get(key) !== value)
    .map(([key]) => key);
  const problems: string[] = [];
  if (refused.length > 0) {
    problems.push(`${refused.join(", ")} ${refused.length > 1 ? "are" : "is"} not supported by anthropic`);
  }
  if (body.temperature != null && body.temperature > 1) problems.push(notSupported("temperature above 1"));
  if (body.response_format && body.response_format.type !== "text" && body.tools?.length) {
    problems.push(notSupported("response_format with tools"));
  }
  if (body.reasoning_effort && body.reasoning_effort !== "none") problems.push(...thinkingProblems(body));
  return problems;
}

/** Anthropic's extended thinking runs only at the default sampling and never with a forced tool. */
function thinkingProblems(body: ChatRequest): string[] {
  const effort = body.reasoning_effort ?? "";
  if (!THINKING_BUDGET.has(effort)) return [notSupported(`reasoning_effort ${effort}`)];
  const problems: string[] = [];
  if (body.temperature != null && body.temperature !== 1) problems.push("temperature with reasoning_effort");
  if (body.top_p != null && body.top_p < 0.95) problems.push("top_p below 0.95 with reasoning_effort");
  const choice = body.tool_choice;
  if (choice === "required" || (typeof choice === "object" && choice !== null)) {
    problems.push("tool_choice forcing a tool with reasoning_effort");
  }
  if (body.response_format && body.response_format.type !== "text") {
    problems.push("response_format with reasoning_effort");
  }
  return problems.map(notSupported);
}

/** System and developer text moves to the top-level system prompt; the rest become alternating turns. */
function translateMessages(messages: ChatMessageParam[]): { system: string[]; turns: Turn[] } {
  const system: string[] = [];
  const turns: Turn[] = [];
  messages.forEach((m, i) => {
    const at = `messages[${i}]`;
    switch (m.role) {
      case "system":
      case "developer":
        system.push(...texts(m.content));
        break;
      case "user":
        addTurn(turns, "user", userBlocks(m.content, at));
        break;
      case "assistant":
        addTurn(turns, "assistant", assistantBlocks(m, at));
        break;
      case "tool":
        addTurn(turns, "user", [toolResult(m)]);
        break;
      default:
        throw unsupported(`${at}.role ${(m as { role: string }).role}`);
    }
  });
  return { system, turns };
}

/** Anthropic needs the roles to alternate, so a turn of the same role as the last one joins it. */
function addTurn(turns: Turn[], role: Turn["role"], blocks: Block[]): void {
  if (blocks.length === 0) return;
  const last = turns.at(-1);
  if (last?.role === role) last.content.push(...blocks);
  else turns.push({ role, content: blocks });
}

// Anthropic rejects empty text blocks.
const texts = (content: string | TextPart[]): string[] =>
  (typeof content === "string" ? [content] : content.map((p) => p.text)).filter((t) => t !== "");

const textBlock = (text: string): Block => ({ type: "text", text });

function userBlocks(content: string | UserPart[], at: string): Block[] {
  if (typeof content === "string") return texts(content).map(textBlock);
  return content.flatMap((part, j): Block[] => {
    if (part.type === "text") return texts(part.text).map(textBlock);
    if (part.type === "image_url") return [imageBlock(part.image_url.url, `${at}.content[${j}].image_url.url`)];
    throw unsupported(`${at}.content[${j}].type ${part.type}`);
  });
}

function assistantBlocks(m: AssistantParam, at: string): Block[] {
  if (m.audio) throw unsupported(`${at}.audio`);
  if (m.function_call) throw unsupported(`${at}.function_call`);
  const content =
    typeof m.content === "string"
      ? [m.content]
      : (m.content ?? []).map((p) => (p.type === "text" ? p.text : p.refusal));
  const text = [...content, m.refusal ?? ""].filter((t) => t !== "");
  return [...text.map(textBlock), ...(m.tool_calls ?? []).map((c, j) => toolUse(c, `${at}.tool_calls[${j}]`))];
}

function toolUse(call: ToolCallParam, at: string): Block {
  if (call.type !== "function") throw unsupported(`${at}.type ${call.type}`);
  const input = toolInput(call.function.arguments, `${at}.function.arguments`);
  return { type: "tool_use", id: call.id, name: call.function.name, input };
}

/** Anthropic takes a tool call's input as an object, where OpenAI carries it as JSON text. */
function toolInput(args: string, at: string): Record<string, unknown> {
  // Some clients send "" for a call without arguments.
  if (args.trim() === "") return {};
  let input: unknown;
  try {
    input = JSON.parse(args);
  } catch {
    throw new GatewayError(400, `${at} is not valid JSON (anthropic needs a JSON object)`);
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new GatewayError(400, `${at} must be a JSON object for anthropic`);
  }
  return input as Record<string, unknown>;
}

function toolResult(m: ToolParam): Block {
  const content =
    typeof m.content === "string" ? m.content : texts(m.content).map((text) => ({ type: "text" as const, text }));
  return { type: "tool_result", tool_use_id: m.tool_call_id, ...(content.length > 0 && { content }) };
}

function translateTool(tool: OpenAI.Chat.Completions.ChatCompletionTool, i: number): Anthropic.Messages.Tool {
  if (tool.type !== "function") throw unsupported(`tools[${i}].type ${tool.type}`);
  const f = tool.function;
  return {
    name: f.name,
    ...(f.description && { description: f.description }),
    input_schema: (f.parameters ?? { type: "object", properties: {} }) as InputSchema,
    ...(f.strict && { strict: true }),
  };
}

function translateToolChoice(body: ChatRequest): Anthropic.Messages.ToolChoice | undefined {
  // OpenAI's parallel_tool_calls is a flag of its own; Anthropic's sits on the tool choice.
  const single = body.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  const choice = body.tool_choice ?? (body.parallel_tool_calls === false ? "auto" : undefined);
  if (choice === undefined) return undefined;
  if (choice === "auto") return { type: "auto", ...single };
  if (choice === "none") return { type: "none" };
  if (choice === "required") return { type: "any", ...single };
  if (choice.type === "function") return { type: "tool", name: choice.function.name, ...single };
  throw unsupported(`tool_choice ${choice.type}`);
}

/** response_format as a tool the model is forced to call: its input is the JSON answer. */
function jsonOutputTool(format: ChatRequest["response_format"]): Anthropic.Messages.Tool | undefined {
  if (!format || format.type === "text") return undefined;
  if (format.type === "json_object") {
    return { name: "json", description: JSON_TOOL_DESCRIPTION, input_schema: { type: "object" } };
  }
  if (format.type !== "json_schema") throw unsupported(`response_format ${(format as { type: string }).type}`);
  const { name, description, schema, strict } = format.json_schema;
  return {
    name,
    description: description ?? JSON_TOOL_DESCRIPTION,
    input_schema: (schema ?? { type: "object" }) as InputSchema,
    ...(strict && { strict: true }),
  };
}

/** A whole Messages API answer as a chat completion. */
export function anthropicToChat(msg: AnthropicMessage, o: AnswerOptions): ChatCompletion {
  const text = msg.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
  const reasoning = msg.content.flatMap((b) => (b.type === "thinking" ? [b.thinking] : [])).join("");
  const uses = msg.content.filter((b) => b.type === "tool_use");
  const json = o.jsonTool === undefined ? undefined : uses.find((u) => u.name === o.jsonTool);
  const calls = (json ? [] : uses).map((u) => ({
    id: u.id,
    type: "function" as const,
    function: { name: u.name, arguments: JSON.stringify(u.input) },
  }));
  const message: AnswerMessage = {
    role: "assistant",
    content: json ? JSON.stringify(json.input) : text || (calls.length > 0 ? null : ""),
    refusal: null,
    ...(calls.length > 0 && { tool_calls: calls }),
    ...(reasoning && { reasoning_content: reasoning }),
  };
  return {
    id: o.id,
    object: "chat.completion",
    created: o.created,
    model: o.model,
    choices: [{ index: 0, message, finish_reason: finishReason(msg.stop_reason, o.jsonTool), logprobs: null }],
    usage: anthropicUsage(msg.usage),
  };
}

/** A Messages API event stream as chat completion chunks, one event at a time. */
export class AnthropicToChatChunks {
  readonly #o: AnswerOptions;
  #counts: UsageCounts = { input_tokens: 0, output_tokens: 0 };
  // OpenAI numbers tool calls from 0; Anthropic's block index also counts text and thinking blocks.
  readonly #callIndex = new Map<number, number>();
  #jsonBlock: number | undefined;
  #finished = false;

  constructor(o: AnswerOptions) {
    this.#o = o;
  }

  /** The chunks to send for one event (often none). */
  push(event: AnthropicEvent): ChatChunk[] {
    switch (event.type) {
      case "message_start":
        this.#counts = event.message.usage;
        return [this.#chunk({ role: "assistant", content: "" })];
      case "content_block_start":
        return this.#blockStart(event);
      case "content_block_delta":
        return this.#blockDelta(event);
      case "message_delta":
        this.#takeUsage(event.usage);
        return [this.#chunk({}, finishReason(event.delta.stop_reason, this.#o.jsonTool))];
      case "message_stop":
        this.#finished = true;
        return [{ ...this.#head(), choices: [], usage: this.usage() }];
      default:
        return [];
    }
  }

  /** Usage so far: input from message_start, output (cumulative) from the latest message_delta. */
  usage(): ChatUsage {
    return anthropicUsage(this.#counts);
  }

  /** Whether message_stop was seen: a stream that ends before it was cut off. */
  finished(): boolean {
    return this.#finished;
  }

  #blockStart({ content_block: block, index }: Anthropic.Messages.RawContentBlockStartEvent): ChatChunk[] {
    if (block.type === "text") return block.text ? [this.#chunk({ content: block.text })] : [];
    if (block.type === "thinking") return block.thinking ? [this.#chunk({ reasoning_content: block.thinking })] : [];
    if (block.type !== "tool_use") return [];
    if (block.name === this.#o.jsonTool) {
      this.#jsonBlock = index;
      return [];
    }
    const call = this.#callIndex.size;
    this.#callIndex.set(index, call);
    const fn = { name: block.name, arguments: "" };
    return [this.#chunk({ tool_calls: [{ index: call, id: block.id, type: "function", function: fn }] })];
  }

  #blockDelta({ delta, index }: Anthropic.Messages.RawContentBlockDeltaEvent): ChatChunk[] {
    if (delta.type === "text_delta") return [this.#chunk({ content: delta.text })];
    if (delta.type === "thinking_delta") return [this.#chunk({ reasoning_content: delta.thinking })];
    if (delta.type !== "input_json_delta" || delta.partial_json === "") return [];
    if (index === this.#jsonBlock) return [this.#chunk({ content: delta.partial_json })];
    const call = this.#callIndex.get(index);
    if (call === undefined) return [];
    return [this.#chunk({ tool_calls: [{ index: call, function: { arguments: delta.partial_json } }] })];
  }

  #takeUsage(u: Anthropic.Messages.MessageDeltaUsage): void {
    const c = this.#counts;
    this.#counts = {
      input_tokens: u.input_tokens ?? c.input_tokens,
      output_tokens: u.output_tokens,
      cache_read_input_tokens: u.cache_read_input_tokens ?? c.cache_read_input_tokens,
      cache_creation_input_tokens: u.cache_creation_input_tokens ?? c.cache_creation_input_tokens,
      output_tokens_details: u.output_tokens_details ?? c.output_tokens_details,
    };
  }

  #head() {
    return { id: this.#o.id, object: "chat.completion.chunk" as const, created: this.#o.created, model: this.#o.model };
  }

  #chunk(delta: Delta, finish_reason: FinishReason | null = null): ChatChunk {
    return { ...this.#head(), choices: [{ index: 0, delta, finish_reason, logprobs: null }] };
  }
}

/** Reads an Anthropic provider's events as chat chunks into the sink: its `error` event throws. */
export function anthropicChunks(sink: ChatSink, chunks: AnthropicToChatChunks): EventTranslator {
  let model: string | undefined;
  return {
    event(data) {
      if (data.type === "error") throw streamFailure(data.error);
      if (data.type === "message_start") model = (data.message as { model?: string }).model;
      return chunks.push(data as unknown as AnthropicEvent).flatMap((c) => sink.push(c));
    },
    end: () => sink.end(),
    error: (message) => sink.error(message),
    usage: () => usageFrom(chunks.usage()),
    model: () => model,
  };
}
