// Why an answer stopped, between Anthropic's stop_reason and chat's finish_reason, both ways.
import type Anthropic from "@anthropic-ai/sdk";
import type { ChatCompletion } from "../types.ts";

type StopReason = Anthropic.Messages.StopReason;
export type FinishReason = ChatCompletion["choices"][number]["finish_reason"];

const FINISH: Record<StopReason, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};

/** An Anthropic provider's stop reason as chat's; `jsonTool` is the forced tool standing in for response_format. */
export function finishReason(reason: StopReason | null, jsonTool: string | undefined): FinishReason {
  // The forced JSON tool is the answer itself, not a call the client should run.
  if (reason === "tool_use" && jsonTool !== undefined) return "stop";
  return (reason && FINISH[reason]) ?? "stop";
}

/** A chat finish reason as a Messages client's stop reason. */
export function stopReason(finish: string | null | undefined): StopReason {
  switch (finish) {
    case "length":
      return "max_tokens";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "content_filter":
      return "refusal";
    default:
      return "end_turn";
  }
}
