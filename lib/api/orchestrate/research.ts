import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { runCascade } from "../../agents/cascade.ts";
import { researchDeps, type RunScope } from "../../agents/research-deps.ts";
import { runSwarm } from "../../agents/swarm.ts";
import type { CascadeInput, SwarmInput } from "../../agents/types.ts";

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

export function runResearch(
  rt: Runtime,
  kind: string,
  input: CascadeInput | SwarmInput,
  scope: RunScope,
): Promise<unknown> {
  const deps = researchDeps(rt, input.provider_name, scope);
  return kind === CASCADE_KIND ? runCascade(input as CascadeInput, deps) : runSwarm(input as SwarmInput, deps);
}

/** Registers the research kinds' work with the runtime's durable tasks (web and worker processes). */
export function defineResearchTasks(rt: Runtime): void {
  for (const kind of RESEARCH_KINDS) {
    rt.durable.define(kind, async (task, ctx) => {
      const input = task.input as CascadeInput | SwarmInput;
      const total = plannedAgents(kind, input.num_agents);
      let finished = 0;
      return runResearch(rt, kind, input, {
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
      });
    });
  }
}
