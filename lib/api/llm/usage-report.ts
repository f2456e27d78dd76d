import type { Context } from "hono";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { eventStreamResponse } from "../../gateway/http/event-stream.ts";
import type { ChatStream, CompletionResponse } from "./chat.ts";

/** Reports a finished completion's provider, model and tokens for metering. */
export function reportCompletion(
  c: Context<GatewayEnv>,
  result: Pick<CompletionResponse, "provider" | "model" | "usage">,
): void {
  c.set("usage", {
    provider: result.provider,
    model: result.model,
    promptTokens: result.usage.prompt_tokens,
    completionTokens: result.usage.completion_tokens,
  });
}

/**
 * A chat stream as the response: metered (provider, model, tokens, bytes) when it ends, which is also
 * when the guard releases the request's concurrency slot, and marked so that proxies do not buffer it.
 */
export function meteredChatStream(c: Context<GatewayEnv>, stream: ChatStream): Response {
  c.set(
    "streamDone",
    stream.finished.then((o) => {
      c.set("usage", {
        provider: o.provider,
        model: o.model,
        promptTokens: o.usage.prompt_tokens,
        completionTokens: o.usage.completion_tokens,
        bytesOut: o.bytes,
      });
    }),
  );
  return eventStreamResponse(c.env?.outgoing, stream.source);
}
