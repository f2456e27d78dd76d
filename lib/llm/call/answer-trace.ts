// What a model call's answer puts on the span of the attempt that answered it (ChatTarget.trace, set
// only when tracing is on): why it finished (gen_ai.response.finish_reasons) and, only when the
// operator turned content capture on, the messages sent and the answer's (genai-content.ts). The
// reasons are the provider's own ("stop", "end_turn"...), as other GenAI instrumentations of each record them.
import {
  genAiMessage,
  inputAttributes,
  outputAttributes,
  type GenAiMessage,
  type WireMessage,
} from "../../observability/genai-content.ts";
import type { TraceScope } from "../../observability/trace-scope.ts";
import type { Usage } from "../chat-types.ts";
import type { EventTranslator } from "../wire/sse.ts";
import type { AnthropicMessage, ChatCompletion } from "../wire/types.ts";

/** What the provider was sent, as far as its content goes: its messages, and Anthropic's separate system prompt. */
export type SentContent = { messages: readonly WireMessage[]; system?: unknown };

/** Why a stream ended when the provider never said: it failed, or the client left. */
const NO_REASON = "error";

/** A whole answer, of either wire, on its attempt's span. */
export function traceAnswer(span: TraceScope, sent: SentContent, answer: ChatCompletion | AnthropicMessage): void {
  // Plain loops: this runs on every traced completion, and most carry one choice and no content capture.
  const reasons: string[] = [];
  if ("choices" in answer) {
    for (const c of answer.choices) if (c.finish_reason) reasons.push(c.finish_reason);
  } else if (answer.stop_reason) reasons.push(answer.stop_reason);
  record(span, reasons, sent, () =>
    "choices" in answer
      ? answer.choices.map((c) =>
          genAiMessage(c.message as WireMessage, (c.finish_reason as string | null) ?? NO_REASON),
        )
      : [
          genAiMessage(
            { role: "assistant", content: answer.content },
            (answer.stop_reason as string | null) ?? NO_REASON,
          ),
        ],
  );
}

/** A text answer (/v1/llm/chat's): its text and why it finished, when the provider said. */
export function traceTextAnswer(span: TraceScope, sent: SentContent, text: string, reason: string | undefined): void {
  record(span, reason ? [reason] : [], sent, () => [textMessage(text, reason)]);
}

function record(span: TraceScope, reasons: string[], sent: SentContent, output: () => GenAiMessage[]): void {
  if (reasons.length) span.span.setAttribute("gen_ai.response.finish_reasons", reasons);
  if (span.captureContent) span.set({ ...inputAttributes(sent.messages, sent.system), ...outputAttributes(output()) });
}

const textMessage = (text: string, reason: string | undefined): GenAiMessage =>
  genAiMessage({ role: "assistant", content: text }, reason ?? NO_REASON);

// A finish reason in a chunk's raw JSON; inside a JSON string a quote is escaped, so model text cannot match.
const FINISH_REASON = /"finish_reason"\s*:\s*"/;
/** How much of a streamed answer's text is kept for its span: the content cap cuts it shorter anyway. */
export const MAX_TRACED_TEXT = 64 * 1024;

/**
 * A stream's translator that also reads the provider's events for why the answer finished (an OpenAI
 * chunk's `finish_reason`, Anthropic's `message_delta` stop reason) and, with content capture, its text.
 * Chunks the translator would pass on unparsed are parsed only when they carry a finish reason, or
 * every one while capturing.
 */
export class WatchedEvents implements EventTranslator {
  readonly #reasons: string[] = [];
  #text = "";

  constructor(
    private readonly inner: EventTranslator,
    private readonly capture: boolean,
  ) {}

  raw(data: string): string[] | undefined {
    if (this.capture || FINISH_REASON.test(data)) return undefined;
    return this.inner.raw?.(data);
  }

  event(data: Record<string, unknown>, name: string | undefined): string[] {
    this.#watch(data);
    return this.inner.event(data, name);
  }

  end = () => this.inner.end();
  error = (message: string) => this.inner.error(message);
  usage = (): Usage => this.inner.usage();
  model = () => this.inner.model();
  features = () => this.inner.features?.();

  /** The answer on the span, once the stream has ended (before the request's end settles and ends the span). */
  record(span: TraceScope, sent: SentContent): void {
    const reasons = this.#reasons.filter((r) => r !== undefined);
    record(span, reasons, sent, () => [textMessage(this.#text, reasons[0])]);
  }

  #watch(data: Record<string, unknown>): void {
    if (Array.isArray(data.choices)) {
      for (const [i, choice] of (data.choices as Array<Record<string, unknown>>).entries()) {
        if (typeof choice.finish_reason === "string")
          this.#reasons[typeof choice.index === "number" ? choice.index : i] = choice.finish_reason;
        const delta = choice.delta as { content?: unknown } | undefined;
        if (this.capture && typeof delta?.content === "string") this.#keep(delta.content);
      }
    } else if (data.type === "message_delta") {
      const reason = (data.delta as { stop_reason?: unknown } | undefined)?.stop_reason;
      if (typeof reason === "string") this.#reasons[0] = reason;
    } else if (this.capture && data.type === "content_block_delta") {
      const delta = data.delta as { type?: unknown; text?: unknown } | undefined;
      if (delta?.type === "text_delta" && typeof delta.text === "string") this.#keep(delta.text);
    }
  }

  #keep(text: string): void {
    if (this.#text.length < MAX_TRACED_TEXT) this.#text += text;
  }
}
