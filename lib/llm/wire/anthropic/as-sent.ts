// A Messages client on Anthropic itself: the request goes as sent and the answer comes back as given,
// but for the model, which the client names provider/model; the events are read on the way for usage.
import { anthropicFeatureUse } from "../../compat/passthrough.ts";
import { usageFrom } from "../openai-chat.ts";
import { sseFrame, streamFailure, type EventTranslator } from "../sse.ts";
import type { AnthropicMessage } from "../types.ts";
import { streamError } from "./errors.ts";
import { anthropicUsage } from "./usage.ts";

/** Anthropic's events passed through as sent (the model renamed `name`), read for usage and features. */
export function anthropicEventsAsSent(name: string): EventTranslator {
  let usage: AnthropicMessage["usage"] | undefined;
  let model: string | undefined;
  return {
    event(data, event) {
      if (data.type === "error") throw streamFailure(data.error);
      if (data.type === "message_start") {
        const message = data.message as AnthropicMessage;
        model = message.model;
        usage = message.usage;
        data = { ...data, message: { ...message, model: name } };
      } else if (data.type === "message_delta" && data.usage) {
        // message_delta's counts are cumulative and may restate the input side.
        usage = { ...usage!, ...(data.usage as Partial<AnthropicMessage["usage"]>) };
      }
      return [sseFrame(data, event ?? String(data.type))];
    },
    end: () => [],
    error: (message) => [sseFrame(streamError(message), "error")],
    usage: () => usageFrom(usage && anthropicUsage(usage)),
    model: () => model,
    features: () => anthropicFeatureUse(usage),
  };
}
