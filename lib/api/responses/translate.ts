// OpenAI's Responses API translated onto Chat Completions, the wire every provider is reached through:
// a Responses request becomes a chat request, and the chat answer (or its stream of chunks) becomes a
// Response (or its stream of events). Anything that cannot be carried faithfully is refused with a 400
// naming it, never dropped, since a dropped option would silently change the answer.
import type OpenAI from "openai";
import { GatewayError } from "../../errors.ts";
import type {
  ChatChunk,
  ChatCompletion,
  ChatMessageParam,
  ChatRequest,
  ChatUsage,
  ResponseEvent,
  ResponseInputItem,
  ResponseObject,
  ResponseOutputItem,
  ResponsesRequest,
} from "../../llm/compat/wire.ts";

type ChatContentPart = OpenAI.Chat.ChatCompletionContentPart;
type InputPart =
  | OpenAI.Responses.ResponseInputContent
  | OpenAI.Responses.ResponseOutputText
  | OpenAI.Responses.ResponseOutputRefusal
  | OpenAI.Responses.ResponseFunctionCallOutputItem;
type MessageItem =
  | OpenAI.Responses.EasyInputMessage
  | OpenAI.Responses.ResponseInputItem.Message
  | OpenAI.Responses.ResponseOutputMessage;
type OutputPart = OpenAI.Responses.ResponseOutputText | OpenAI.Responses.ResponseOutputRefusal;

export type ResponseContext = { id: string; model: string; createdAt: number; request: ResponsesRequest };

function refuse(what: string, verb: "is" | "are"): never {
  throw new GatewayError(400, `${what} ${verb} not supported on /v1/responses`);
}

/** A request's input as items: a bare string is one user message. */
export function inputItems(input: ResponsesRequest["input"]): ResponseInputItem[] {
  if (input === undefined) return [];
  return typeof input === "string" ? [{ type: "message", role: "user", content: input }] : input;
}

// ---------------------------------------------------------------------------------------------------
// Request

/**
 * Options that are translated, or that the caller or the response echo use (model, input,
 * previous_response_id, store, metadata, include, truncation, stream_options). Any other option set
 * would be ignored upstream and change the answer, so it is refused.
 */
const ACCEPTED_OPTIONS = new Set([
  "model",
  "input",
  "instructions",
  "previous_response_id",
  "store",
  "metadata",
  "include",
  "truncation",
  "stream",
  "stream_options",
  "background",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "text",
  "max_output_tokens",
  "temperature",
  "top_p",
  "service_tier",
  "reasoning",
  "user",
  "safety_identifier",
]);

/** All refused options in one 400, so a client fixes its request once. A null option is unset. */
function refuseUnsupportedOptions(body: ResponsesRequest): void {
  const refused = Object.entries(body)
    .filter(([key, value]) => value != null && (!ACCEPTED_OPTIONS.has(key) || (key === "background" && value)))
    .map(([key]) => key);
  const builtIn = [...new Set((body.tools ?? []).filter((t) => t.type !== "function").map((t) => t.type))];
  if (builtIn.length) refused.push(`tools of type ${builtIn.join(", ")}`);
  if (refused.length) refuse(refused.join(", "), refused.length > 1 || builtIn.length ? "are" : "is");
}

/** The chat request answering a Responses request, after the prior conversation's items. */
export function responsesToChat(body: ResponsesRequest, modelId: string, prior: ResponseInputItem[]): ChatRequest {
  refuseUnsupportedOptions(body);
  const request: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
    model: modelId,
    messages: [
      ...(body.instructions ? [{ role: "system" as const, content: body.instructions }] : []),
      ...itemsToMessages([...prior, ...inputItems(body.input)]),
    ],
    // Chat Completions rejects an empty tools list.
    tools: body.tools?.length ? body.tools.map(chatTool) : undefined,
    tool_choice: body.tool_choice == null ? undefined : chatToolChoice(body.tool_choice),
    parallel_tool_calls: body.parallel_tool_calls ?? undefined,
    response_format: responseFormat(body.text?.format),
    verbosity: body.text?.verbosity ?? undefined,
    max_completion_tokens: body.max_output_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    top_p: body.top_p ?? undefined,
    service_tier: body.service_tier ?? undefined,
    reasoning_effort: body.reasoning?.effort ?? undefined,
    user: body.user ?? body.safety_identifier ?? undefined,
  };
  return body.stream ? { ...request, stream: true, stream_options: { include_usage: true } } : request;
}

function itemsToMessages(items: ResponseInputItem[]): ChatMessageParam[] {
  const messages: ChatMessageParam[] = [];
  for (const item of items) {
    // A message's type is optional, as is an item reference's: only the message has a role.
    if ((item.type === undefined || item.type === "message") && "role" in item) messages.push(chatMessage(item));
    else if (item.type === "function_call") addToolCall(messages, item);
    else if (item.type === "function_call_output") {
      const content = typeof item.output === "string" ? item.output : textOf(item.output, "function_call_output");
      messages.push({ role: "tool", tool_call_id: item.call_id, content });
    }
    // Reasoning items are opaque to every other provider; the answer they led to is in the later items.
    else if (item.type !== "reasoning") refuse(`input items of type ${item.type ?? "item_reference"}`, "are");
  }
  return messages;
}

/** Items are only loosely checked on the way in, so a message's role and content are checked here. */
function chatMessage(item: MessageItem): ChatMessageParam {
  const { role, content } = item;
  if (!["user", "assistant", "system", "developer"].includes(role)) refuse(`messages with role ${role}`, "are");
  if (typeof content !== "string" && !Array.isArray(content)) {
    throw new GatewayError(400, "a message's content must be a string or a list of content parts");
  }
  if (role === "user") return { role, content: typeof content === "string" ? content : content.map(chatPart) };
  // Text only, as a string: several providers refuse content parts in system and assistant messages.
  const text = typeof content === "string" ? content : textOf(content, `${role} messages`);
  return role === "assistant" ? { role, content: text } : { role: "system", content: text };
}

/** A function call joins the assistant message just before it, as chat's tool_calls are one message's. */
function addToolCall(messages: ChatMessageParam[], item: OpenAI.Responses.ResponseFunctionToolCall): void {
  const call = {
    id: item.call_id,
    type: "function" as const,
    function: { name: item.name, arguments: item.arguments },
  };
  const last = messages.at(-1);
  if (last?.role === "assistant") last.tool_calls = [...(last.tool_calls ?? []), call];
  else messages.push({ role: "assistant", content: null, tool_calls: [call] });
}

function chatPart(part: InputPart): ChatContentPart {
  switch (part.type) {
    case "input_text":
    case "output_text":
      return { type: "text", text: part.text };
    case "refusal":
      return { type: "text", text: part.refusal };
    case "input_image":
      return { type: "image_url", image_url: imageUrl(part) };
    default:
      return refuse(`content parts of type ${part.type}`, "are");
  }
}

function imageUrl(part: OpenAI.Responses.ResponseInputImage | OpenAI.Responses.ResponseInputImageContent) {
  const { image_url: url, detail } = part;
  if (!url) refuse(part.file_id ? "input_image with file_id (send image_url)" : "input_image without image_url", "is");
  // Chat Completions has no full-resolution detail; a lower one would change what the model sees.
  if (detail === "original") refuse("input_image detail original", "is");
  return { url, detail: detail ?? undefined };
}

/** The text of parts where chat takes text alone (`where` names the place for the error). */
function textOf(parts: InputPart[], where: string): string {
  return parts
    .map((part) => {
      const chat = chatPart(part);
      return chat.type === "text" ? chat.text : refuse(`${part.type} in ${where}`, "is");
    })
    .join("\n");
}

function chatTool(tool: OpenAI.Responses.Tool): OpenAI.Chat.ChatCompletionFunctionTool {
  if (tool.type !== "function") refuse(`tools of type ${tool.type}`, "are");
  const { name, description, parameters, strict } = tool;
  return {
    type: "function",
    function: { name, description: description ?? undefined, parameters: parameters ?? undefined, strict },
  };
}

function chatToolChoice(
  choice: NonNullable<ResponsesRequest["tool_choice"]>,
): OpenAI.Chat.ChatCompletionToolChoiceOption {
  if (typeof choice === "string") return choice;
  if (choice.type === "function" && "name" in choice) return { type: "function", function: { name: choice.name } };
  return refuse(`tool_choice of type ${choice.type}`, "is");
}

function responseFormat(format: OpenAI.Responses.ResponseFormatTextConfig | undefined): ChatRequest["response_format"] {
  switch (format?.type) {
    case undefined:
    case "text":
      return undefined; // chat's default
    case "json_object":
      return { type: "json_object" };
    case "json_schema": {
      const { name, schema, strict, description } = format;
      return { type: "json_schema", json_schema: { name, schema, strict, description } };
    }
    default:
      return refuse(`text.format of type ${(format as { type: string }).type}`, "is");
  }
}

// ---------------------------------------------------------------------------------------------------
// Answer

type Outcome = Pick<ResponseObject, "status" | "incomplete_details" | "error" | "output" | "usage">;

/** The Response for an outcome, echoing the request's settings as OpenAI does. */
function responseObject(o: ResponseContext, outcome: Outcome): ResponseObject {
  const r = o.request;
  // `store` is in OpenAI's answers, though not in the SDK's Response type.
  const response: ResponseObject & { store: boolean } = {
    id: o.id,
    object: "response",
    created_at: o.createdAt,
    instructions: r.instructions ?? null,
    max_output_tokens: r.max_output_tokens ?? null,
    model: o.model,
    output_text: outputText(outcome.output),
    parallel_tool_calls: r.parallel_tool_calls ?? true,
    previous_response_id: r.previous_response_id ?? null,
    reasoning: { effort: r.reasoning?.effort ?? null, summary: null },
    store: r.store ?? true,
    temperature: r.temperature ?? null,
    text: { format: r.text?.format ?? { type: "text" }, verbosity: r.text?.verbosity ?? undefined },
    tool_choice: r.tool_choice ?? "auto",
    tools: r.tools ?? [],
    top_p: r.top_p ?? null,
    truncation: r.truncation ?? "disabled",
    user: r.user,
    metadata: r.metadata ?? {},
    ...outcome,
  };
  return response;
}

function outputText(output: ResponseOutputItem[]): string {
  return output
    .flatMap((item) => (item.type === "message" ? item.content : []))
    .map((part) => (part.type === "output_text" ? part.text : ""))
    .join("");
}

function finishOutcome(finish: string | null | undefined): Pick<ResponseObject, "status" | "incomplete_details"> {
  if (finish === "length") return { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } };
  if (finish === "content_filter") return { status: "incomplete", incomplete_details: { reason: "content_filter" } };
  return { status: "completed", incomplete_details: null };
}

function responseUsage(u: ChatUsage | null | undefined): OpenAI.Responses.ResponseUsage | undefined {
  if (!u) return undefined;
  return {
    input_tokens: u.prompt_tokens,
    input_tokens_details: {
      cached_tokens: u.prompt_tokens_details?.cached_tokens ?? 0,
      cache_write_tokens: u.prompt_tokens_details?.cache_write_tokens ?? 0,
    },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: u.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: u.total_tokens,
  };
}

/** Item ids follow from the response's, so the same answer always carries the same ids. */
function itemId(prefix: "rs" | "msg" | "fc", responseId: string, outputIndex: number): string {
  return `${prefix}_${responseId.replace(/^resp_/, "")}_${outputIndex}`;
}

/** The response an output item's id names (itemId's inverse), so an `item_reference` can be looked up. */
export function responseOfItem(id: string): string | undefined {
  const match = /^(?:rs|msg|fc)_(\w+)_\d+$/.exec(id);
  return match ? `resp_${match[1]}` : undefined;
}

/** The reasoning text several providers add to chat messages and deltas, outside OpenAI's types. */
function reasoningContent(message: object | undefined): string | undefined {
  const reasoning = (message as { reasoning_content?: unknown } | undefined)?.reasoning_content;
  return typeof reasoning === "string" && reasoning ? reasoning : undefined;
}

function reasoningItem(id: string, text: string): OpenAI.Responses.ResponseReasoningItem {
  return { type: "reasoning", id, summary: text ? [{ type: "summary_text", text }] : [] };
}

function messageItem(id: string, content: OutputPart[], status: "in_progress" | "completed"): ResponseOutputItem {
  return { type: "message", id, status, role: "assistant", content };
}

function textPart(text: string): OpenAI.Responses.ResponseOutputText {
  return { type: "output_text", text, annotations: [], logprobs: [] };
}

type Call = { id: string; callId: string; name: string; arguments: string };

function functionCallItem(c: Call, status: "in_progress" | "completed"): OpenAI.Responses.ResponseFunctionToolCall {
  return { type: "function_call", id: c.id, call_id: c.callId, name: c.name, arguments: c.arguments, status };
}

/** The Response for a chat answer. */
export function chatToResponse(c: ChatCompletion, o: ResponseContext): ResponseObject {
  const choice = c.choices[0];
  const message = choice?.message;
  const output: ResponseOutputItem[] = [];
  const reasoning = reasoningContent(message);
  if (reasoning) output.push(reasoningItem(itemId("rs", o.id, output.length), reasoning));
  const content: OutputPart[] = [];
  if (message?.content) content.push(textPart(message.content));
  if (message?.refusal) content.push({ type: "refusal", refusal: message.refusal });
  if (content.length) output.push(messageItem(itemId("msg", o.id, output.length), content, "completed"));
  for (const call of message?.tool_calls ?? []) {
    // Only function tools are ever sent upstream, so only function calls come back.
    if (call.type !== "function") continue;
    const { name, arguments: args } = call.function;
    const id = itemId("fc", o.id, output.length);
    output.push(functionCallItem({ id, callId: call.id, name, arguments: args }, "completed"));
  }
  return responseObject(o, {
    ...finishOutcome(choice?.finish_reason),
    error: null,
    output,
    usage: responseUsage(c.usage),
  });
}

// ---------------------------------------------------------------------------------------------------
// Stream

type Unsequenced<E = ResponseEvent> = E extends unknown ? Omit<E, "sequence_number"> : never;

/** The item being streamed: one at a time, as OpenAI streams them. */
type OpenItem =
  | { type: "reasoning"; index: number; id: string; text: string }
  | { type: "message"; index: number; id: string; content: OutputPart[]; part?: { kind: PartKind; text: string } }
  | ({ type: "function_call"; index: number; chatIndex: number } & Call);
type PartKind = "output_text" | "refusal";
type ReasoningState = Extract<OpenItem, { type: "reasoning" }>;
type MessageState = Extract<OpenItem, { type: "message" }>;
type CallState = Extract<OpenItem, { type: "function_call" }>;
type ToolCallDelta = OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall;

function summaryRef(item: OpenItem) {
  return { item_id: item.id, output_index: item.index, summary_index: 0 };
}

function partRef(item: MessageState) {
  return { item_id: item.id, output_index: item.index, content_index: item.content.length };
}

/**
 * Responses streaming events for a stream of chat chunks. Every event carries its sequence number;
 * each item is opened, streamed and closed before the next (as OpenAI streams them), so a client's
 * accumulator (the official SDK's among them) rebuilds the same Response that end() sends.
 */
export class ChatToResponseEvents {
  private seq = 0;
  private started = false;
  private events: ResponseEvent[] = [];
  private output: ResponseOutputItem[] = [];
  private current: OpenItem | undefined;
  private usage: ChatUsage | undefined;
  private finish: string | null = null;
  private final: ResponseObject | undefined;

  constructor(private readonly o: ResponseContext) {}

  push(chunk: ChatChunk): ResponseEvent[] {
    this.start();
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (choice) {
      const reasoning = reasoningContent(choice.delta);
      if (reasoning) this.reasoningDelta(reasoning);
      if (choice.delta.content) this.partDelta("output_text", choice.delta.content);
      if (choice.delta.refusal) this.partDelta("refusal", choice.delta.refusal);
      for (const call of choice.delta.tool_calls ?? []) this.toolCallDelta(call);
      if (choice.finish_reason) this.finish = choice.finish_reason;
    }
    return this.drain();
  }

  end(): ResponseEvent[] {
    this.start();
    this.close();
    const outcome = finishOutcome(this.finish);
    this.final = this.snapshot({ ...outcome, error: null, usage: responseUsage(this.usage) });
    const type = outcome.status === "incomplete" ? "response.incomplete" : "response.completed";
    this.emit({ type, response: this.final });
    return this.drain();
  }

  /** The stream failed upstream: the items finished so far, in a failed response. */
  error(message: string): ResponseEvent[] {
    this.start();
    this.final = this.snapshot({
      status: "failed",
      incomplete_details: null,
      error: { code: "server_error", message },
      usage: responseUsage(this.usage),
    });
    this.emit({ type: "response.failed", response: this.final });
    return this.drain();
  }

  /** The final response, once end() or error() has been called. */
  response(): ResponseObject {
    if (!this.final) throw new Error("the response is final only after end() or error()");
    return this.final;
  }

  private snapshot(outcome: Omit<Outcome, "output">): ResponseObject {
    return responseObject(this.o, { ...outcome, output: [...this.output] });
  }

  private emit(event: Unsequenced): void {
    this.events.push({ ...event, sequence_number: this.seq++ });
  }

  private drain(): ResponseEvent[] {
    return this.events.splice(0);
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    const response = this.snapshot({ status: "in_progress", incomplete_details: null, error: null, usage: undefined });
    this.emit({ type: "response.created", response });
    this.emit({ type: "response.in_progress", response });
  }

  private nextIndex(): number {
    return this.output.length;
  }

  private reasoningDelta(delta: string): void {
    const open = this.current;
    const item = open?.type === "reasoning" ? open : this.openReasoning();
    item.text += delta;
    this.emit({ ...summaryRef(item), type: "response.reasoning_summary_text.delta", delta });
  }

  private openReasoning(): ReasoningState {
    this.close();
    const index = this.nextIndex();
    const item: ReasoningState = { type: "reasoning", index, id: itemId("rs", this.o.id, index), text: "" };
    this.current = item;
    this.emit({ type: "response.output_item.added", output_index: index, item: reasoningItem(item.id, "") });
    const part = { type: "summary_text" as const, text: "" };
    this.emit({ ...summaryRef(item), type: "response.reasoning_summary_part.added", part });
    return item;
  }

  /** Text and refusal deltas fill one message; a change between them starts its next part. */
  private partDelta(kind: PartKind, delta: string): void {
    const open = this.current;
    const item = open?.type === "message" ? open : this.openMessage();
    if (item.part?.kind !== kind) {
      this.closePart(item);
      item.part = { kind, text: "" };
      this.emit({ ...partRef(item), type: "response.content_part.added", part: outputPart(kind, "") });
    }
    item.part.text += delta;
    if (kind === "output_text") {
      this.emit({ ...partRef(item), type: "response.output_text.delta", delta, logprobs: [] });
    } else {
      this.emit({ ...partRef(item), type: "response.refusal.delta", delta });
    }
  }

  private openMessage(): MessageState {
    this.close();
    const index = this.nextIndex();
    const item: MessageState = { type: "message", index, id: itemId("msg", this.o.id, index), content: [] };
    this.current = item;
    this.emit({
      type: "response.output_item.added",
      output_index: index,
      item: messageItem(item.id, [], "in_progress"),
    });
    return item;
  }

  private closePart(item: MessageState): void {
    const { part } = item;
    if (!part) return;
    if (part.kind === "output_text") {
      this.emit({ ...partRef(item), type: "response.output_text.done", text: part.text, logprobs: [] });
    } else {
      this.emit({ ...partRef(item), type: "response.refusal.done", refusal: part.text });
    }
    const done = outputPart(part.kind, part.text);
    this.emit({ ...partRef(item), type: "response.content_part.done", part: done });
    item.content.push(done);
    item.part = undefined;
  }

  /**
   * A delta continues the open call when it has the same index and no new id: some providers
   * number parallel calls all 0, telling them apart only by id.
   */
  private toolCallDelta(delta: ToolCallDelta): void {
    const open = this.current;
    const continues =
      open?.type === "function_call" && open.chatIndex === delta.index && (!delta.id || delta.id === open.callId);
    const item = continues ? open : this.openCall(delta);
    const args = delta.function?.arguments;
    if (!args) return;
    item.arguments += args;
    const ref = { item_id: item.id, output_index: item.index };
    this.emit({ ...ref, type: "response.function_call_arguments.delta", delta: args });
  }

  private openCall(delta: ToolCallDelta): CallState {
    this.close();
    const index = this.nextIndex();
    const item: CallState = {
      type: "function_call",
      index,
      chatIndex: delta.index,
      id: itemId("fc", this.o.id, index),
      callId: delta.id ?? "",
      name: delta.function?.name ?? "",
      arguments: "",
    };
    this.current = item;
    this.emit({ type: "response.output_item.added", output_index: index, item: functionCallItem(item, "in_progress") });
    return item;
  }

  /** Closes the open item, which then takes its place in the output. */
  private close(): void {
    const item = this.current;
    if (!item) return;
    this.current = undefined;
    let done: ResponseOutputItem;
    if (item.type === "reasoning") {
      this.emit({ ...summaryRef(item), type: "response.reasoning_summary_text.done", text: item.text });
      const part = { type: "summary_text" as const, text: item.text };
      this.emit({ ...summaryRef(item), type: "response.reasoning_summary_part.done", part });
      done = reasoningItem(item.id, item.text);
    } else if (item.type === "message") {
      this.closePart(item);
      done = messageItem(item.id, item.content, "completed");
    } else {
      const { id: item_id, index: output_index, name, arguments: args } = item;
      this.emit({ item_id, output_index, type: "response.function_call_arguments.done", name, arguments: args });
      done = functionCallItem(item, "completed");
    }
    this.output.push(done);
    this.emit({ type: "response.output_item.done", output_index: item.index, item: done });
  }
}

function outputPart(kind: PartKind, text: string): OutputPart {
  return kind === "output_text" ? textPart(text) : { type: "refusal", refusal: text };
}
