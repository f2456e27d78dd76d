import { GatewayError } from "../../errors.ts";
import { DEFAULT_PROVIDER } from "../../upstream/llm-catalogue.ts";
import { pool } from "../../abortable.ts";
import { clip, runAgent, type AgentRunDeps } from "../../agents/agent-run.ts";
import { CONCURRENCY, parseSubtasks } from "../../agents/cascade.ts";
import { usageTally } from "../../agents/cost.ts";
import { dedupeSources } from "../../agents/sources.ts";
import { tierModel, tierPlan } from "../../agents/tiers.ts";
import type { AgentDeps, AgentInfo, ResearchUsage, Source, Tier, ToolCallRecord } from "../../agents/types.ts";
import { TOOLS } from "../../tools/tools.ts";

export type HiveDepth = "quick" | "balanced" | "deep";
/** `provider_name` (default xai) only names the models in events: the deps' llm is bound to the provider. */
export type HiveInput = { task: string; depth: HiveDepth; provider_name?: string };
export type HiveStep = {
  id: string;
  subtask: string;
  output?: string;
  error?: string;
  tool_calls: ToolCallRecord[];
  sources: Source[];
  status: "completed" | "failed";
};
export type HiveResult = {
  task: string;
  depth: HiveDepth;
  plan: string[];
  steps: HiveStep[];
  answer: string;
  sources: Source[];
  usage: ResearchUsage;
};
export type HiveDeps = AgentRunDeps & Pick<AgentDeps, "toolContext">;

/** How many subtasks each depth plans, and the budget its agents run on (tiers as for the cascade). */
export const HIVE_STEPS: Record<HiveDepth, number> = { quick: 2, balanced: 3, deep: 5 };
export const HIVE_BUDGET: Record<HiveDepth, Tier> = { quick: "cheap", balanced: "balanced", deep: "premium" };

export const HIVE_PROMPTS = {
  planner: (n: number) =>
    `Role: planner. You plan a short research effort. Split the task into exactly ${n} concrete steps, each one a ` +
    `question a researcher with data-source tools can answer. Answer with a numbered list only, one step per line.`,
  step:
    "Role: worker. You carry out one step of a research plan. Use the tools when facts or data would help. Answer " +
    "in at most 250 words, naming the sources you used by title.",
  synthesis:
    "Role: synthesizer. You answer a research task from the results of its plan's steps: the answer first, then the " +
    "supporting points, naming their sources by title. At most 400 words.",
};

/**
 * Hive (SPEC "swarm"): a planner splits the task into steps (2, 3 or 5 by depth), each step
 * an agent with the registry tools (in parallel), then one synthesis answers the task. Steps failing
 * are reported; all failing, or the planner or synthesis failing, rejects.
 */
export async function runHive(input: HiveInput, deps: HiveDeps): Promise<HiveResult> {
  const tiers = tierPlan(HIVE_BUDGET[input.depth]);
  const n = HIVE_STEPS[input.depth];
  const tally = usageTally();
  const node = (id: string, role: AgentInfo["role"], tier: Tier, title: string, parent?: string): AgentInfo => ({
    id,
    role,
    tier,
    model: tierModel(input.provider_name ?? DEFAULT_PROVIDER, tier),
    title,
    ...(parent ? { parent } : {}),
  });

  const planned = await runAgent(deps, tally, node("planner", "planner", tiers.synthesizer, "Plan"), {
    system: HIVE_PROMPTS.planner(n),
    prompt: `Task: ${input.task}\n\nWrite exactly ${n} steps as a numbered list.`,
  });
  if (!planned.ok) throw new GatewayError(502, `the planner agent failed: ${planned.error}`);
  const plan = parseSubtasks(planned.reply.content, n, input.task);

  const steps = await pool(plan, CONCURRENCY, deps.signal, async (subtask, i): Promise<HiveStep> => {
    const id = `step-${i + 1}`;
    const outcome = await runAgent(deps, tally, node(id, "worker", tiers.worker, subtask, "synthesis"), {
      system: HIVE_PROMPTS.step,
      prompt: `Task: ${input.task}\n\nYour step: ${subtask}`,
      tools: TOOLS,
      maxSteps: 3,
      toolContext: deps.toolContext,
    });
    if (!outcome.ok) return { id, subtask, error: outcome.error, tool_calls: [], sources: [], status: "failed" };
    const { reply } = outcome;
    return {
      id,
      subtask,
      output: reply.content,
      tool_calls: reply.toolCalls,
      sources: dedupeSources(reply.sources),
      status: "completed",
    };
  });
  const done = steps.filter((s) => s.status === "completed");
  if (!done.length) throw new GatewayError(502, `all ${n} hive steps failed: ${steps[0]!.error}`);

  const results = done.map((s) => `### ${s.id}: ${s.subtask}\n${clip(s.output!)}`).join("\n\n");
  const synthesis = await runAgent(
    deps,
    tally,
    node("synthesis", "synthesizer", tiers.summary, "Answer"),
    { system: HIVE_PROMPTS.synthesis, prompt: `Task: ${input.task}\n\nStep results:\n\n${results}` },
    "summary_complete",
  );
  if (!synthesis.ok) throw new GatewayError(502, `the synthesis agent failed: ${synthesis.error}`);

  return {
    task: input.task,
    depth: input.depth,
    plan,
    steps,
    answer: synthesis.reply.content,
    sources: dedupeSources(done.flatMap((s) => s.sources)),
    usage: tally.summary(),
  };
}
