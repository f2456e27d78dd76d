import type { UsageDetail } from "../gateway/http/context.ts";
import { StreamAnswer } from "../gateway/pipeline/answer.ts";
import type { FeatureUse } from "../usage/meter.ts";
import type { CacheUse } from "../usage/usage-event.ts";
import type { ChatStream, CompletionResponse } from "./chat-types.ts";

/** A finished completion's provider, model and tokens, and what it used beyond tokens, as metered. */
export const completionUsage = (
  result: Pick<CompletionResponse, "provider" | "model" | "usage"> & { features?: FeatureUse },
): UsageDetail => ({
  provider: result.provider,
  model: result.model,
  promptTokens: result.usage.prompt_tokens,
  completionTokens: result.usage.completion_tokens,
  ...(result.features && { features: result.features }),
});

/**
 * A chat stream as a route's answer: server-sent events, metered (provider, model, tokens, bytes) when
 * they end; with what the response cache did, when the request asked for it.
 */
export const chatStreamAnswer = (stream: ChatStream, cache?: CacheUse): StreamAnswer =>
  new StreamAnswer(
    stream.source,
    stream.finished.then((o) => ({ ...completionUsage(o), bytesOut: o.bytes, ...(cache && { cache }) })),
  );
