import { SpanKind, type Attributes } from "@opentelemetry/api";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { runCascade } from "../../agents/cascade.ts";
import { researchDeps, type RunScope } from "../../agents/research-deps.ts";
import { runSwarm } from "../../agents/swarm.ts";
import type { CascadeInput, SwarmInput } from "../../agents/types.ts";
import { GatewayError } from "../../errors.ts";
import { BudgetExceeded } from "../../jobs/budget-exceeded.ts";

export const CASCADE_KIND = "dream-cascade";
export const SWARM_KIND = "dream-swarm";
/** The kinds GET/DELETE /v1/orchestrate/{id} answer for, and that share the per-key cap. */
export const RESEARCH_KINDS = [CASCADE_KIND, SWARM_KIND] as const;
export const ID_PREFIX: Record<(typeof RESEARCH_KINDS)[number], string> = {
  [CASCADE_KIND]: "research",
  [SWARM_KIND]: "swarm",
};

/** Agents of a run's tree, for its progress: workers, one synthesizer per 5 and the summary (or searchers and the merge). */
export function plannedAgents(kind: string, numAgents: number): number {
  return kind === CASCADE_KIND ? numAgents + Math.ceil(numAgents / 5) + 1 : numAgents + 1;
}

const FINISHED = new Set(["agent_complete", "agent_failed", "synthesis_complete", "summary_complete"]);

/** What a run's `research.task` span says of it: its kind, size, provider and tier, never its task or query. */
export function researchAttributes(kind: string, input: CascadeInput | SwarmInput, taskId?: string): Attributes {
  return {
    "gateway.task.kind": kind,
    "gateway.research.agents": input.num_agents,
    "gateway.research.budget_tier": input.budget_tier,
    "gen_ai.provider.name": input.provider_name,
    ...(taskId !== undefined && { "gateway.task.id": taskId }),
  };
}

/**
 * Runs a research kind's work. Traced (`scope.trace`: the run's own `research.task` span), the span
 * ends with the run, failed when it fails, and its phases and agents are spans under it.
 */
export async function runResearch(
  rt: Runtime,
  kind: string,
  input: CascadeInput | SwarmInput,
  scope: RunScope,
): Promise<unknown> {
  const trace = scope.trace;
  try {
    const deps = researchDeps(rt, input.provider_name, scope);
    return await (kind === CASCADE_KIND
      ? runCascade(input as CascadeInput, deps)
      : runSwarm(input as SwarmInput, deps));
  } catch (err) {
    trace?.fail(endedAs(err, scope.signal));
    throw err;
  } finally {
    trace?.end();
  }
}

/** A failed run's error type: cancelled, out of budget, the status it failed with; never its message. */
const endedAs = (err: unknown, signal: AbortSignal) =>
  err instanceof BudgetExceeded
    ? "budget_exceeded"
    : signal.aborted
      ? "cancelled"
      : err instanceof GatewayError
        ? String(err.status)
        : "error";

/**
 * A queued task's span in the process that runs it (kind CONSUMER), continuing the trace of the
 * request that submitted it, so the request and the whole run are one trace.
 */
function taskTrace(rt: Runtime, kind: string, input: CascadeInput | SwarmInput, taskId: string, traceparent?: string) {
  return rt.tracing?.root(
    "research.task",
    researchAttributes(kind, input, taskId),
    traceparent === undefined ? undefined : (name) => (name === "traceparent" ? traceparent : undefined),
    SpanKind.CONSUMER,
  );
}

/** Registers the research kinds' work with the runtime's durable tasks (web and worker processes). */
export function defineResearchTasks(rt: Runtime): void {
  for (const kind of RESEARCH_KINDS) {
    rt.durable.define(kind, async (task, ctx) => {
      const input = task.input as CascadeInput | SwarmInput;
      const total = plannedAgents(kind, input.num_agents);
      let finished = 0;
      const trace = taskTrace(rt, kind, input, task.id, ctx.traceparent);
      try {
        return await runResearch(rt, kind, input, {
          keyId: task.ownerKeyId ?? "",
          route: `/v1/orchestrate/${kind}`,
          area: "orchestrate",
          requestId: task.id,
          signal: ctx.signal,
          emit: (event) => {
            ctx.emit(event);
            if (FINISHED.has(event.type)) void ctx.progress(Math.min(0.99, ++finished / total)).catch(() => {});
          },
          onSpend: (spend) => ctx.spent(spend),
          trace,
        });
      } finally {
        // A worker may be stopped (or scaled away) soon after its task: the run's spans leave now,
        // not at the exporter's next scheduled batch.
        if (trace) void rt.tracing!.flush().catch(() => {});
      }
    });
  }
}
