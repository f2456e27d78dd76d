import { generateText, stepCountIs, tool, type StepResult, type ToolSet } from "ai";
import { GatewayError } from "../errors.ts";
import { usageOf } from "../llm/chat.ts";
import { providerError } from "../llm/errors.ts";
import type { ChatTarget } from "../llm/call/index.ts";
import { configuredProvider, languageModel } from "../llm/models.ts";
import type { ModelRouter } from "../llm/routing/router.ts";
import { runToolCall, type Tool } from "../tools/tool.ts";
import { sourcesFrom } from "./sources.ts";
import type { AgentCall, AgentLlm, AgentReply, Source, ToolCallRecord } from "./types.ts";
import { CallStop } from "../upstream/call-stop.ts";

/** One agent call, all its steps and tool runs included; the caller's signal (cancel) can end it sooner. */
export const AGENT_TIMEOUT_MS = 180_000;
/** What the model reads of one tool result: enough for a page of search hits, not a whole upstream body. */
export const TOOL_OUTPUT_CHARS = 12_000;

export type AgentLlmOptions = {
  provider: string;
  /** The runtime's model router (modelRouter): each call goes to the tier's model's deployments through it. */
  router: Promise<ModelRouter>;
  /** Called after each answered call (to meter it); awaited, so its failure is the call's. */
  onCall?: (reply: AgentReply, call: AgentCall) => void | Promise<void>;
  timeoutMs?: number;
};

const errorText = (err: unknown) => ((err instanceof Error ? err.message : String(err)) || "failed").slice(0, 300);

/** Registry tools as AI SDK tools: same description and zod input; they run with the call's cache, signal and admission. */
function sdkTools(tools: readonly Tool[], call: AgentCall, signal: AbortSignal): ToolSet {
  const context = call.toolContext;
  if (!context) throw new Error(`agent ${call.agentId} was given tools without a toolContext`);
  return Object.fromEntries(
    tools.map((t) => [
      t.name,
      tool({
        description: t.description,
        inputSchema: t.input,
        // A throw here (a refused admission too) becomes the SDK's tool-error part: the model is told
        // the tool failed and goes on.
        execute: (args, { abortSignal }) =>
          runToolCall(t, args, { ...context, signal: abortSignal ?? signal, trace: call.trace }),
        toModelOutput: ({ output }) => ({
          type: "text",
          value: JSON.stringify(output ?? null).slice(0, TOOL_OUTPUT_CHARS),
        }),
      }),
    ]),
  );
}

/** Every tool call of every step, in order, with what its results cite. */
export function toolOutcomes(
  steps: ReadonlyArray<Pick<StepResult<ToolSet>, "content">>,
  tools: readonly Tool[],
): { toolCalls: ToolCallRecord[]; sources: Source[] } {
  const toolCalls: ToolCallRecord[] = [];
  const sources: Source[] = [];
  for (const step of steps)
    for (const part of step.content) {
      if (part.type === "tool-result") {
        toolCalls.push({ tool: part.toolName, args: part.input, ok: true });
        const from = tools.find((t) => t.name === part.toolName)?.module ?? part.toolName;
        sources.push(...sourcesFrom(part.output, from));
      } else if (part.type === "tool-error") {
        toolCalls.push({ tool: part.toolName, args: part.input, ok: false, error: errorText(part.error) });
      }
    }
  return { toolCalls, sources };
}

/**
 * The agents' LLM: one provider (400 unknown, 503 unconfigured, checked here), the model its tier's,
 * reached through the model router as `provider/model` (its key pool, retries and breakers). With tools
 * the model may call them over up to `maxSteps` steps (default 3), the last one without tools so the
 * call ends in an answer; a retried attempt runs its steps again. Usage is the total over the steps; a
 * provider's failure is its GatewayError as for /v1/llm/chat; an answer without text is a 502 (after
 * `onCall`: its tokens were spent). `timeoutMs` bounds every attempt of one call together.
 */
export function agentLlm({ provider, router, onCall, timeoutMs = AGENT_TIMEOUT_MS }: AgentLlmOptions): AgentLlm {
  const entry = configuredProvider(provider);
  return async (call) => {
    const modelId = entry.tiers[call.tier];
    const routing = await router;
    const plan = routing.plan(`${entry.name}/${modelId}`, { id: call.agentId });
    // Each attempt a GenAI span under the agent's; the one that answered stays open for its usage.
    if (call.trace) plan.trace = call.trace;
    const stop = new CallStop(timeoutMs).follow(call.signal);
    const tools = call.tools?.length ? call.tools : undefined;
    let routed;
    try {
      routed = await routing.run(
        plan,
        (target, attemptStop) => agentAttempt(target, call, tools, attemptStop).finally(() => attemptStop.release()),
        stop,
        Date.now() + timeoutMs,
      );
    } finally {
      stop.release();
    }
    const { value: result, candidate } = routed;
    const answeredBy = candidate.entry.name;
    const reply: AgentReply = {
      content: result.text.trim(),
      provider: answeredBy,
      model: result.response?.modelId || candidate.modelId,
      usage: usageOf(result.totalUsage),
      ...toolOutcomes(result.steps, tools ?? []),
    };
    call.trace?.settle({
      model: reply.model,
      promptTokens: reply.usage.prompt_tokens,
      completionTokens: reply.usage.completion_tokens,
    });
    await onCall?.(reply, call);
    if (!reply.content) throw new GatewayError(502, `${answeredBy} answered agent ${call.agentId} with no text`);
    return reply;
  };
}

/**
 * One attempt of an agent call on the deployment the router chose, its steps and tool runs included;
 * traced, the provider's requests carry the attempt's traceparent.
 */
async function agentAttempt(target: ChatTarget, call: AgentCall, tools: readonly Tool[] | undefined, stop: CallStop) {
  const maxSteps = Math.max(1, call.maxSteps ?? 3);
  const signal = stop.signal;
  try {
    return await generateText({
      model: languageModel(target.entry, target.modelId),
      system: call.system,
      prompt: call.prompt,
      ...(stop.traceparent !== undefined && { headers: { traceparent: stop.traceparent } }),
      ...(tools
        ? {
            tools: sdkTools(tools, call, signal),
            stopWhen: stepCountIs(maxSteps),
            prepareStep: ({ stepNumber }) => (stepNumber === maxSteps - 1 ? { toolChoice: "none" as const } : {}),
          }
        : {}),
      maxRetries: 0,
      abortSignal: signal,
    });
  } catch (err) {
    throw providerError(target.entry.name, err);
  }
}
