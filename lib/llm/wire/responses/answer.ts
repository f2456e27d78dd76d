// The chat pivot's answer as a Response, for a Responses client: the output items, the outcome, the
// usage, and the request's settings echoed as OpenAI echoes them. Item ids follow from the response's.
import type OpenAI from "openai";
import { reasoningText } from "../openai-chat.ts";
import type { ChatCompletion, ChatUsage, ResponseObject, ResponseOutputItem, ResponsesRequest } from "../types.ts";

export type OutputPart = OpenAI.Responses.ResponseOutputText | OpenAI.Responses.ResponseOutputRefusal;

/** What a Response is made for: its id, the model as the client names it, when, and the request it answers. */
export type ResponseContext = { id: string; model: string; createdAt: number; request: ResponsesRequest };

export type Outcome = Pick<ResponseObject, "status" | "incomplete_details" | "error" | "output" | "usage">;

/** The Response for an outcome, echoing the request's settings as OpenAI does. */
export function responseObject(o: ResponseContext, outcome: Outcome): ResponseObject {
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

export function finishOutcome(
  finish: string | null | undefined,
): Pick<ResponseObject, "status" | "incomplete_details"> {
  if (finish === "length") return { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } };
  if (finish === "content_filter") return { status: "incomplete", incomplete_details: { reason: "content_filter" } };
  return { status: "completed", incomplete_details: null };
}

export function responseUsage(u: ChatUsage | null | undefined): OpenAI.Responses.ResponseUsage | undefined {
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
export function itemId(prefix: "rs" | "msg" | "fc", responseId: string, outputIndex: number): string {
  return `${prefix}_${responseId.replace(/^resp_/, "")}_${outputIndex}`;
}

/** The response an output item's id names (itemId's inverse), so an `item_reference` can be looked up. */
export function responseOfItem(id: string): string | undefined {
  const match = /^(?:rs|msg|fc)_(\w+)_\d+$/.exec(id);
  return match ? `resp_${match[1]}` : undefined;
}

export function reasoningItem(id: string, text: string): OpenAI.Responses.ResponseReasoningItem {
  return { type: "reasoning", id, summary: text ? [{ type: "summary_text", text }] : [] };
}

export function messageItem(
  id: string,
  content: OutputPart[],
  status: "in_progress" | "completed",
): ResponseOutputItem {
  return { type: "message", id, status, role: "assistant", content };
}

export function textPart(text: string): OpenAI.Responses.ResponseOutputText {
  return { type: "output_text", text, annotations: [], logprobs: [] };
}

export type Call = { id: string; callId: string; name: string; arguments: string };

export function functionCallItem(
  c: Call,
  status: "in_progress" | "completed",
): OpenAI.Responses.ResponseFunctionToolCall {
  return { type: "function_call", id: c.id, call_id: c.callId, name: c.name, arguments: c.arguments, status };
}

/** The Response for a chat answer. */
export function chatToResponse(c: ChatCompletion, o: ResponseContext): ResponseObject {
  const choice = c.choices[0];
  const message = choice?.message;
  const output: ResponseOutputItem[] = [];
  const reasoning = reasoningText(message);
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
