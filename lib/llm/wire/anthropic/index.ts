// Anthropic's Messages wire, both ways: the chat pivot sent to an Anthropic provider and its answer
// read back (provider.ts), a Messages client's request onto the pivot and the answer written back to
// it (client.ts), Anthropic's events passed through for a Messages client on Anthropic (as-sent.ts),
// and Anthropic's error body (errors.ts). Usage, stop reasons and images map both ways in one place each.
export { anthropicEventsAsSent } from "./as-sent.ts";
export { ChatToMessageEvents, chatToMessage, messageEventSink, messageJson, messagesToChat } from "./client.ts";
export { AnthropicErrorSchema, streamError, toAnthropicError } from "./errors.ts";
export { AnthropicToChatChunks, anthropicChunks, anthropicToChat, chatToAnthropic } from "./provider.ts";
export { anthropicUsage, messageUsage } from "./usage.ts";
