// The chat pivot's chunks as Responses streaming events, for a Responses client.
import type OpenAI from "openai";
import { continuesCall, reasoningText, type ChatSink } from "../openai-chat.ts";
import { sseFrame } from "../sse.ts";
import type { ChatChunk, ChatUsage, ResponseEvent, ResponseObject, ResponseOutputItem } from "../types.ts";
import {
  finishOutcome,
  functionCallItem,
  itemId,
  messageItem,
  reasoningItem,
  responseObject,
  responseUsage,
  textPart,
  type Call,
  type Outcome,
  type OutputPart,
  type ResponseContext,
} from "./answer.ts";

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
      const reasoning = reasoningText(choice.delta);
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

  /** A delta continues the open call (continuesCall) or opens the next. */
  private toolCallDelta(delta: ToolCallDelta): void {
    const open = this.current;
    const continues = open?.type === "function_call" && continuesCall(delta, open.chatIndex, open.callId);
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

/** Responses events as server-sent events named by their type; the finished response is handed to `done`. */
export function responseEventSink(context: ResponseContext, done: (r: ResponseObject) => void): ChatSink {
  const events = new ChatToResponseEvents(context);
  const frames = (list: ResponseEvent[]) => list.map((e) => sseFrame(e, e.type));
  return {
    push: (chunk) => frames(events.push(chunk)),
    end: () => {
      const out = frames(events.end());
      done(events.response());
      return out;
    },
    error: (message) => frames(events.error(message)),
  };
}
