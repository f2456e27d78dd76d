import { untilAborted } from "../abortable.ts";
import { GatewayError } from "../errors.ts";
import type { TraceScope } from "../observability/trace-scope.ts";
import type { UsageTally } from "./cost.ts";
import type { AgentCall, AgentDeps, AgentInfo, AgentReply } from "./types.ts";

// The running of agents shared by the cascade, the swarm and the hive: events around each call, and
// a cancel that rejects at once (bounded parallelism is lib/abortable.ts's pool).

export type AgentOutcome =
  { ok: true; reply: AgentReply; duration_ms: number } | { ok: false; error: string; duration_ms: number };

export const errorMessage = (err: unknown): string =>
  ((err instanceof Error ? err.message : String(err)) || "unknown error").slice(0, 500);

export type AgentRunDeps = Pick<AgentDeps, "llm" | "signal" | "trace"> & { emit?: AgentDeps["emit"] };

/**
 * An agent's span, as the GenAI conventions name one (`invoke_agent worker-2`): its id, role, tier and
 * model, never its title, which is a subtask in the task's own words.
 */
export function agentSpan(parent: TraceScope, agent: AgentInfo): TraceScope {
  return parent.child(`invoke_agent ${agent.id}`, {
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": agent.id,
    "gateway.agent.role": agent.role,
    "gateway.agent.tier": agent.tier,
    "gen_ai.request.model": agent.model,
  });
}

/** What a failed agent's or tool's span says went wrong: a status, or that the run was cancelled; never a message. */
export const failureType = (err: unknown, signal: AbortSignal): string =>
  signal.aborted ? "cancelled" : err instanceof GatewayError ? String(err.status) : "error";

/**
 * A phase of a run (`research.workers`): traced, its agents' spans go under the phase's span, which
 * ends with it; untraced, `work` gets the deps as they are.
 */
export async function inPhase<D extends { trace?: TraceScope }, T>(
  deps: D,
  name: string,
  work: (deps: D) => Promise<T>,
): Promise<T> {
  if (!deps.trace) return work(deps);
  const phase = deps.trace.child(name);
  try {
    return await work({ ...deps, trace: phase });
  } finally {
    phase.end();
  }
}

/**
 * One agent: `agent_start`, the call, then `done` (with duration and tool-call count) or
 * `agent_failed`. A failure is returned, not thrown, so a run can go on without the agent; a cancel
 * is thrown (the signal's reason), and none is started once the signal has aborted. Traced
 * (`deps.trace`, its phase's span), the agent is a span over its model call and tool calls; a call
 * given its own `trace` (an agent whose span its caller keeps) runs under that instead.
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
  const span = deps.trace && agentSpan(deps.trace, agent);
  try {
    const reply = await untilAborted(
      deps.llm({
        ...call,
        agentId: agent.id,
        role: agent.role,
        tier: agent.tier,
        signal: deps.signal,
        trace: span ?? call.trace,
      }),
      deps.signal,
    );
    span?.end();
    tally.add(agent.tier, reply);
    const duration_ms = elapsed();
    deps.emit?.({
      type: done,
      agent: { ...agent, model: reply.model, duration_ms, tool_calls: reply.toolCalls.length },
    });
    return { ok: true, reply, duration_ms };
  } catch (err) {
    span?.fail(failureType(err, deps.signal)).end();
    if (deps.signal.aborted) throw deps.signal.reason;
    const error = errorMessage(err);
    deps.emit?.({ type: "agent_failed", agent, error });
    return { ok: false, error, duration_ms: elapsed() };
  }
}

/** Text handed from one agent to the next, cut so a long answer cannot crowd out the others. */
export const clip = (text: string, max = 6000): string => (text.length > max ? `${text.slice(0, max)}…` : text);
