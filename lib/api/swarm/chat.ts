import { GatewayError } from "../../errors.ts";
import type { Usage } from "../../llm/chat-types.ts";
import { untilAborted } from "../../abortable.ts";
import { dedupeSources } from "../../agents/sources.ts";
import type { AgentDeps, Source, ToolCallRecord } from "../../agents/types.ts";
import type { Tool } from "../../tools/tool.ts";
import { TOOLS, toolByName } from "../../tools/tools.ts";

export type SwarmChatInput = { prompt: string; tools?: string[] };
export type SwarmChatResult = {
  answer: string;
  tool_calls: ToolCallRecord[];
  sources: Source[];
  provider: string;
  model: string;
  usage: Usage;
};
export type SwarmDeps = Pick<AgentDeps, "llm" | "signal" | "toolContext" | "trace">;

export const CHAT_MAX_STEPS = 5;
export const CHAT_SYSTEM =
  "Role: chat. You are a research assistant with tools over public data sources (papers, news, code, encyclopedias, " +
  "science, weather, finance and more). Answer the user's request, calling the tools when facts or data would help, " +
  "and name the sources you used by title.";

/** The registry tools a request names (none or an empty list: all of them); 400 naming those that do not exist. */
export function selectTools(names?: readonly string[]): readonly Tool[] {
  if (!names?.length) return TOOLS;
  const unique = [...new Set(names)];
  const unknown = unique.filter((n) => !toolByName(n));
  if (unknown.length) {
    // Name at most a few, each cut short: the message echoes what the caller sent.
    const shown = unknown.slice(0, 5).map((n) => `'${n.slice(0, 60)}'`);
    const more = unknown.length > 5 ? ` and ${unknown.length - 5} more` : "";
    throw new GatewayError(
      400,
      `unknown tool${unknown.length > 1 ? "s" : ""} ${shown.join(", ")}${more}: GET /v1/tools/ lists them`,
    );
  }
  return unique.map((n) => toolByName(n)!);
}

/**
 * Swarm chat (SPEC "swarm"): one agent on the balanced tier answers the prompt, calling the
 * registry tools (all, or the ones named) over up to five steps; the answer lists the calls it made.
 */
export async function runSwarmChat(input: SwarmChatInput, deps: SwarmDeps): Promise<SwarmChatResult> {
  const tools = selectTools(input.tools);
  deps.signal.throwIfAborted();
  const reply = await untilAborted(
    deps.llm({
      agentId: "chat",
      role: "chat",
      tier: "balanced",
      system: CHAT_SYSTEM,
      prompt: input.prompt,
      tools,
      maxSteps: CHAT_MAX_STEPS,
      toolContext: deps.toolContext,
      signal: deps.signal,
      trace: deps.trace,
    }),
    deps.signal,
  );
  return {
    answer: reply.content,
    tool_calls: reply.toolCalls,
    sources: dedupeSources(reply.sources),
    provider: reply.provider,
    model: reply.model,
    usage: reply.usage,
  };
}
