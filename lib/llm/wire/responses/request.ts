// A Responses client's request (/v1/responses) onto the chat pivot. Anything that cannot be carried
// faithfully is refused with a 400 naming it, never dropped, since a dropped option would silently
// change the answer.
import type OpenAI from "openai";
import { GatewayError } from "../../../errors.ts";
import type { ChatMessageParam, ChatRequest, ResponseInputItem, ResponsesRequest } from "../types.ts";

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

function refuse(what: string, verb: "is" | "are"): never {
  throw new GatewayError(400, `${what} ${verb} not supported on /v1/responses`);
}

/** A request's input as items: a bare string is one user message. */
export function inputItems(input: ResponsesRequest["input"]): ResponseInputItem[] {
  if (input === undefined) return [];
  return typeof input === "string" ? [{ type: "message", role: "user", content: input }] : input;
}

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
