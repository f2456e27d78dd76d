// OpenAI's error body now lives with its wire (lib/llm/wire/openai-chat.ts); the models area still
// imports it from here, and switches when its owners next touch it.
export { toOpenAIError } from "../wire/openai-chat.ts";
