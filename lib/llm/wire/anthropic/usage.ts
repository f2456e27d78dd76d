// Token counts between Anthropic's usage and chat's, both ways. Anthropic counts cached input apart
// from input_tokens (reads and writes); chat's prompt_tokens includes it, with reads as cached_tokens.
import type { AnthropicMessage, ChatUsage } from "../types.ts";

/** The token counts of an Anthropic usage object that the chat usage is made of. */
export type UsageCounts = {
  // null in a message_delta that does not restate the input side
  input_tokens: number | null;
  output_tokens: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens: number } | null;
};

/** An Anthropic provider's usage as chat usage. */
export function anthropicUsage(u: UsageCounts): ChatUsage {
  const cached = u.cache_read_input_tokens ?? 0;
  const prompt = (u.input_tokens ?? 0) + cached + (u.cache_creation_input_tokens ?? 0);
  return {
    prompt_tokens: prompt,
    completion_tokens: u.output_tokens,
    total_tokens: prompt + u.output_tokens,
    prompt_tokens_details: { cached_tokens: cached },
    ...(u.output_tokens_details && {
      completion_tokens_details: { reasoning_tokens: u.output_tokens_details.thinking_tokens },
    }),
  };
}

/** A chat answer's usage as a Messages client reads it (zero when the provider sent none). */
export function messageUsage(u: ChatUsage | undefined): AnthropicMessage["usage"] {
  const cached = u?.prompt_tokens_details?.cached_tokens ?? 0;
  const reasoning = u?.completion_tokens_details?.reasoning_tokens;
  return {
    input_tokens: (u?.prompt_tokens ?? 0) - cached,
    output_tokens: u?.completion_tokens ?? 0,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
    output_tokens_details: reasoning === undefined ? null : { thinking_tokens: reasoning },
    cache_creation: null,
    inference_geo: null,
    server_tool_use: null,
    service_tier: null,
    speed: null,
  };
}
