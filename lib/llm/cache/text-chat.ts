// The gateway's own text chat (/v1/llm/chat) in the response cache's pivot form: its question as a
// Chat Completions body, so it is keyed as the compatible surfaces are, and its answer ({content,
// model, provider, usage}) as a one-choice chat completion and back.
import { GATEWAY_STREAM, type StreamFormat } from "../chat.ts";
import type { CompletionResponse } from "../chat-types.ts";
import { sseFrame } from "../wire/sse.ts";
import type { ChatChunk, ChatCompletion } from "../wire/types.ts";
import type { StreamAnswer } from "../../gateway/pipeline/answer.ts";
import type { CacheHit } from "./answer-cache.ts";
import type { AnswerRecorder } from "./chunks.ts";
import { replayFrames } from "./replay.ts";

/** The fields of a /v1/llm/chat body that decide its answer (the routing fields, fallbacks and stream do not). */
export function textChatQuestion(body: {
  messages: readonly { role: string; content: string }[];
  max_tokens?: number;
  temperature?: number;
  effort?: string;
  extended_thinking?: boolean;
  thinking?: object;
  inference_geo?: string;
}): object {
  const { messages, max_tokens, temperature, effort, extended_thinking, thinking, inference_geo } = body;
  return { messages, max_tokens, temperature, effort, extended_thinking, thinking, inference_geo };
}

/** A text answer as the cache keeps it, carrying `name` (the alias or provider/model asked for) as the compatible surfaces' answers do. */
export function answerOfCompletion(r: CompletionResponse, id: string, name: string): ChatCompletion {
  return {
    id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: name,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: r.content, refusal: null },
        finish_reason: "stop",
        logprobs: null,
      },
    ],
    usage: r.usage,
  };
}

/** A kept answer as /v1/llm/chat gives it: the text, the provider and model that first gave it, its usage. */
export function completionOfAnswer(answer: ChatCompletion, provider: string, model: string): CompletionResponse {
  const usage = answer.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  return {
    content: answer.choices[0]?.message.content ?? "",
    model,
    provider,
    usage: {
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      total_tokens: usage.total_tokens,
    },
  };
}

/**
 * The gateway's own stream format ({content} deltas, then {done}), also handing what it sends to
 * `recorder` as the chunks of a one-choice chat answer labelled `head`, so a stream is kept as a whole
 * answer is.
 */
export function recordingTextFormat(
  recorder: AnswerRecorder,
  head: Pick<ChatChunk, "id" | "model" | "created">,
): StreamFormat {
  const chunk = (delta: ChatChunk["choices"][number]["delta"], finish: "stop" | null = null): ChatChunk => ({
    ...head,
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  return {
    ...GATEWAY_STREAM,
    delta(content) {
      recorder.push(chunk({ content }));
      return GATEWAY_STREAM.delta(content);
    },
    done(outcome) {
      recorder.push(chunk({}, "stop"));
      recorder.push({ ...chunk({}), choices: [], usage: outcome.usage });
      return GATEWAY_STREAM.done(outcome);
    },
  };
}

/** A kept answer as /v1/llm/chat streams it: its text in one delta, then {done} with the provider, model and usage that first gave it. */
export function replayTextStream(hit: CacheHit): StreamAnswer {
  const { content, ...done } = completionOfAnswer(hit.answer, hit.provider, hit.model);
  const events = [...(content ? [GATEWAY_STREAM.delta(content)] : []), ...GATEWAY_STREAM.done(done)];
  return replayFrames(
    hit,
    events.map((e) => sseFrame(e)),
  );
}
