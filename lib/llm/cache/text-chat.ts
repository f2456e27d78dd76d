// The gateway's own text chat (/v1/llm/chat) in the response cache's pivot form: its question as a
// Chat Completions body, so it is keyed as the compatible surfaces are, and its answer ({content,
// model, provider, usage}) as a one-choice chat completion and back.
import type { CompletionResponse } from "../chat-types.ts";
import type { ChatCompletion } from "../wire/types.ts";

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
