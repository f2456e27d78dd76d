import type { UsageDetail } from "../../gateway/http/context.ts";
import { StreamAnswer } from "../../gateway/pipeline/answer.ts";
import type { FeatureUse } from "../../usage/meter.ts";
import type { ChatStream, CompletionResponse } from "./chat.ts";

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
 * Reports a finished completion's provider, model and tokens for metering, on a route still served by
 * the Hono app (whose context holds the usage); a pipeline route calls c.report(completionUsage(r)).
 */
export function reportCompletion(
  c: { set(name: "usage", usage: UsageDetail): void },
  result: Pick<CompletionResponse, "provider" | "model" | "usage">,
): void {
  c.set("usage", completionUsage(result));
}

/** A chat stream as a route's answer: server-sent events, metered (provider, model, tokens, bytes) when they end. */
export const chatStreamAnswer = (stream: ChatStream): StreamAnswer =>
  new StreamAnswer(
    stream.source,
    stream.finished.then((o) => ({ ...completionUsage(o), bytesOut: o.bytes })),
  );
