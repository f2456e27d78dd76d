// OpenAI's Responses wire, for a Responses client (/v1/responses): its request onto the chat pivot
// (request.ts), the pivot's answer as a Response (answer.ts) and its chunks as Responses events
// (stream.ts; a failure part way is the stream's `response.failed`). Its error body is OpenAI's
// (toOpenAIError in ../openai-chat.ts).
export { chatToResponse, responseOfItem, type ResponseContext } from "./answer.ts";
export { inputItems, responsesToChat } from "./request.ts";
export { ChatToResponseEvents, responseEventSink } from "./stream.ts";
