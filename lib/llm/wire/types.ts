// The wire shapes of the three compatible surfaces, from the official SDKs' own type definitions
// (type-only imports: nothing of the SDKs runs in the gateway). OpenAI's Chat Completions is the
// form every surface is translated through: the Messages and Responses surfaces become a chat
// request, and an Anthropic upstream answers one.
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";

export type ChatRequest = OpenAI.Chat.Completions.ChatCompletionCreateParams;
export type ChatMessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
export type ChatCompletion = OpenAI.Chat.Completions.ChatCompletion;
export type ChatChunk = OpenAI.Chat.Completions.ChatCompletionChunk;
export type ChatUsage = OpenAI.Completions.CompletionUsage;

export type MessagesRequest = Anthropic.Messages.MessageCreateParams;
export type AnthropicMessage = Anthropic.Messages.Message;
export type AnthropicEvent = Anthropic.Messages.RawMessageStreamEvent;

export type ResponsesRequest = OpenAI.Responses.ResponseCreateParams;
export type ResponseObject = OpenAI.Responses.Response;
export type ResponseInputItem = OpenAI.Responses.ResponseInputItem;
export type ResponseOutputItem = OpenAI.Responses.ResponseOutputItem;
export type ResponseEvent = OpenAI.Responses.ResponseStreamEvent;
