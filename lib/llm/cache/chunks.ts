// A cached answer's two forms. The cache keeps one whole ChatCompletion per answer; a streamed request
// is answered from it as the chunks a provider would have sent (completionChunks), and a streamed
// answer is kept by rebuilding the whole of it from its chunks as they pass to the client
// (AnswerRecorder, fed by recordingSink). Chat chunks are what every surface's sink writes from, so one
// cached answer replays to /v1/chat/completions, /v1/messages and /v1/responses alike.
import { contentText, continuesCall, reasoningText, type ChatSink } from "../wire/openai-chat.ts";
import type { ChatChunk, ChatCompletion, ChatUsage } from "../wire/types.ts";

type Choice = ChatCompletion["choices"][number];
type Message = Choice["message"] & { reasoning_content?: string };
type Delta = ChatChunk["choices"][number]["delta"] & { reasoning_content?: string };
type FunctionCall = { id: string; type: "function"; function: { name: string; arguments: string } };
type Head = Pick<ChatCompletion, "id" | "created" | "model" | "system_fingerprint" | "service_tier">;

/** An answer's labels, as the whole answer carries them and a stream repeats them on every chunk. */
const labels = (h: Head): Head => ({
  id: h.id,
  created: h.created,
  model: h.model,
  ...(h.system_fingerprint !== undefined && { system_fingerprint: h.system_fingerprint }),
  ...(h.service_tier !== undefined && { service_tier: h.service_tier }),
});

/**
 * A cached answer as the chunks a provider would have streamed: per choice a role chunk, its content,
 * refusal and reasoning_content in one delta, each tool call whole in a delta of its own, a finish
 * chunk; then the usage chunk (`choices: []`) when the answer has usage. Chat Completions streams only
 * function calls, so a custom (free-form) tool call, which has no chunk form, is not among them.
 */
export function completionChunks(answer: ChatCompletion): ChatChunk[] {
  const head = { ...labels(answer), object: "chat.completion.chunk" as const };
  const chunk = (index: number, delta: Delta, finish_reason: Choice["finish_reason"] | null = null): ChatChunk => ({
    ...head,
    choices: [{ index, delta, finish_reason, logprobs: null }],
  });
  const chunks: ChatChunk[] = [];
  for (const { index, message, finish_reason } of answer.choices) {
    chunks.push(chunk(index, { role: "assistant", content: "", refusal: null }));
    const reasoning = reasoningText(message);
    if (message.content || message.refusal || reasoning) {
      const { content, refusal } = message;
      chunks.push(
        chunk(index, { content, refusal: refusal ?? null, ...(reasoning && { reasoning_content: reasoning }) }),
      );
    }
    const calls = (message.tool_calls ?? []).filter((c) => c.type === "function");
    calls.forEach(({ id, function: { name, arguments: args } }, i) =>
      chunks.push(
        chunk(index, { tool_calls: [{ index: i, id, type: "function", function: { name, arguments: args } }] }),
      ),
    );
    chunks.push(chunk(index, {}, finish_reason));
  }
  if (answer.usage) chunks.push({ ...head, choices: [], usage: answer.usage });
  return chunks;
}

/** One choice as its chunks have built it so far; `index` of a call is the chunks' tool-call index. */
type ChoiceState = {
  text: string;
  refusal: string;
  reasoning: string;
  calls: Array<{ index: number; call: FunctionCall }>;
  finish: Choice["finish_reason"] | null;
};

/**
 * Rebuilds the whole answer from a stream's parsed chunks as they pass: text, refusal and
 * reasoning_content concatenated per choice, tool calls merged by their index (id and name from the
 * first delta that has them, arguments concatenated), the finish reason, the usage chunk's usage, and
 * id, created, model (and system_fingerprint, service_tier) from the first chunk that has them.
 */
export class AnswerRecorder {
  readonly #maxChars: number;
  #chars = 0;
  // Set when the answer is not to be kept: too long, or `drop`ped.
  #dropped = false;
  #head: Head | undefined;
  readonly #choices = new Map<number, ChoiceState>();
  #usage: ChatUsage | undefined;

  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  push(chunk: ChatChunk): void {
    if (this.#dropped) return;
    const head = (this.#head ??= { id: chunk.id, created: chunk.created, model: chunk.model });
    head.system_fingerprint ??= chunk.system_fingerprint;
    if (head.service_tier === undefined) head.service_tier = chunk.service_tier;
    // Some providers repeat the running usage on every chunk: the last one is the total.
    if (chunk.usage) this.#usage = chunk.usage;
    for (const choice of chunk.choices) {
      const state = this.#choice(choice.index);
      // Azure's content-filter chunks come without a delta.
      const delta: Delta | undefined = choice.delta;
      if (delta) this.#take(state, delta);
      if (choice.finish_reason) state.finish = choice.finish_reason;
    }
    if (this.#chars > this.#maxChars) {
      // Too long to cache: what was kept is let go, and nothing more is.
      this.drop();
    }
  }

  /** Lets go of what was recorded: the answer is not to be kept, and nothing more is recorded. */
  drop(): void {
    this.#dropped = true;
    this.#choices.clear();
  }

  /** The completion, or undefined when the stream did not finish (a choice has no finish reason, or none came), outgrew maxChars or was dropped. */
  answer(): ChatCompletion | undefined {
    const head = this.#head;
    if (this.#dropped || !head || this.#choices.size === 0) return undefined;
    const choices: Choice[] = [];
    for (const [index, s] of [...this.#choices].sort(([a], [b]) => a - b)) {
      if (!s.finish) return undefined;
      const message: Message = {
        role: "assistant",
        // No text is null beside tool calls or a refusal, as a provider's whole answer has it.
        content: s.text || (s.calls.length > 0 || s.refusal ? null : ""),
        refusal: s.refusal || null,
        ...(s.calls.length > 0 && { tool_calls: s.calls.map((c) => c.call) }),
        ...(s.reasoning && { reasoning_content: s.reasoning }),
      };
      choices.push({ index, message, finish_reason: s.finish, logprobs: null });
    }
    return { ...labels(head), object: "chat.completion", choices, ...(this.#usage && { usage: this.#usage }) };
  }

  #choice(index: number): ChoiceState {
    let state = this.#choices.get(index);
    if (!state) {
      state = { text: "", refusal: "", reasoning: "", calls: [], finish: null };
      this.#choices.set(index, state);
    }
    return state;
  }

  #take(state: ChoiceState, delta: Delta): void {
    const text = contentText(delta.content);
    const refusal = delta.refusal ?? "";
    const reasoning = reasoningText(delta) ?? "";
    state.text += text;
    state.refusal += refusal;
    state.reasoning += reasoning;
    this.#chars += text.length + refusal.length + reasoning.length;
    for (const d of delta.tool_calls ?? []) {
      const open = state.calls.findLast((c) => c.index === d.index);
      // A new id at the same index is a new call: some providers number parallel calls all 0.
      const continues = open && (!open.call.id || continuesCall(d, open.index, open.call.id));
      const { call } = continues ? open : openCall(state, d.index);
      call.id ||= d.id ?? "";
      call.function.name ||= d.function?.name ?? "";
      const args = d.function?.arguments ?? "";
      call.function.arguments += args;
      this.#chars += args.length;
    }
  }
}

function openCall(state: ChoiceState, index: number): ChoiceState["calls"][number] {
  const entry = { index, call: { id: "", type: "function" as const, function: { name: "", arguments: "" } } };
  state.calls.push(entry);
  return entry;
}

/**
 * `inner`, also handing each chunk to `recorder`. It has no pushRaw, so every chunk is parsed: the
 * price of recording, which only requests whose answer is to be cached pay.
 */
export function recordingSink(inner: ChatSink, recorder: AnswerRecorder): ChatSink {
  return {
    push(chunk) {
      recorder.push(chunk);
      return inner.push(chunk);
    },
    end: () => inner.end(),
    error: (message) => inner.error(message),
  };
}
