import type { Context } from "hono";
import type { GatewayEnv, UsageDetail } from "../../gateway/http/context.ts";
import { StreamAnswer } from "../../gateway/http/plain-route.ts";
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

/** Reports a finished completion's provider, model and tokens for metering. */
export function reportCompletion(
  c: Context<GatewayEnv>,
  result: Pick<CompletionResponse, "provider" | "model" | "usage">,
): void {
  c.set("usage", completionUsage(result));
}

/** A chat stream as a body route's answer: metered (provider, model, tokens, bytes) when it ends. */
export const streamAnswer = (stream: ChatStream): StreamAnswer =>
  new StreamAnswer(
    stream.source,
    stream.finished.then((o) => ({ ...completionUsage(o), bytesOut: o.bytes })),
  );
