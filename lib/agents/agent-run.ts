import { untilAborted } from "../abortable.ts";
import type { UsageTally } from "./cost.ts";
import type { AgentCall, AgentDeps, AgentInfo, AgentReply } from "./types.ts";

// The running of agents shared by the cascade, the swarm and the hive: events around each call, and
// a cancel that rejects at once (bounded parallelism is lib/abortable.ts's pool).

export type AgentOutcome =
  { ok: true; reply: AgentReply; duration_ms: number } | { ok: false; error: string; duration_ms: number };

export const errorMessage = (err: unknown): string =>
  ((err instanceof Error ? err.message : String(err)) || "unknown error").slice(0, 500);

export type AgentRunDeps = Pick<AgentDeps, "llm" | "signal"> & { emit?: AgentDeps["emit"] };

/**
 * One agent: `agent_start`, the call, then `done` (with duration and tool-call count) or
 * `agent_failed`. A failure is returned, not thrown, so a run can go on without the agent; a cancel
 * is thrown (the signal's reason), and none is started once the signal has aborted.
 */
export async function runAgent(
  deps: AgentRunDeps,
  tally: UsageTally,
  agent: AgentInfo,
  call: Omit<AgentCall, "agentId" | "role" | "tier" | "signal">,
  done: "agent_complete" | "synthesis_complete" | "summary_complete" = "agent_complete",
): Promise<AgentOutcome> {
  deps.signal.throwIfAborted();
  deps.emit?.({ type: "agent_start", agent });
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const reply = await untilAborted(
      deps.llm({ ...call, agentId: agent.id, role: agent.role, tier: agent.tier, signal: deps.signal }),
      deps.signal,
    );
    tally.add(agent.tier, reply);
    const duration_ms = elapsed();
    deps.emit?.({
      type: done,
      agent: { ...agent, model: reply.model, duration_ms, tool_calls: reply.toolCalls.length },
    });
    return { ok: true, reply, duration_ms };
  } catch (err) {
    if (deps.signal.aborted) throw deps.signal.reason;
    const error = errorMessage(err);
    deps.emit?.({ type: "agent_failed", agent, error });
    return { ok: false, error, duration_ms: elapsed() };
  }
}

/** Text handed from one agent to the next, cut so a long answer cannot crowd out the others. */
export const clip = (text: string, max = 6000): string => (text.length > max ? `${text.slice(0, max)}…` : text);
