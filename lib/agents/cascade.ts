import { GatewayError } from "../errors.ts";
import type { Usage } from "../llm/chat-types.ts";
import { TOOLS } from "../tools/tools.ts";
import { pool } from "../abortable.ts";
import { clip, inPhase, runAgent, type AgentOutcome } from "./agent-run.ts";
import { usageTally } from "./cost.ts";
import { dedupeSources } from "./sources.ts";
import { researchModels, tierPlan } from "./tiers.ts";
import type {
  AgentDeps,
  AgentInfo,
  CascadeInput,
  CascadeResult,
  Failure,
  SynthesisResult,
  WorkerResult,
} from "./types.ts";

/** Workers (and synthesisers) running at once: enough to be quick, few enough not to trip a provider's rate limit. */
export const CONCURRENCY = 4;
/** Worker outputs one synthesiser reads. */
export const GROUP_SIZE = 5;
export const WORKER_MAX_STEPS = 3;

// Each system prompt opens with "Role: <role>." — plain to the model, and how the fake provider in
// test/fakes/research-llm.ts tells the agents apart.
export const PROMPTS = {
  breakdown: (n: number) =>
    `Role: breakdown. You plan research. Split the task into exactly ${n} distinct subtasks that together cover it, ` +
    `each a self-contained research question. Answer with a numbered list only, one subtask per line, no preamble.`,
  worker:
    "Role: worker. You are one of several research agents, each given one subtask of a larger task. Research your " +
    "subtask, calling the tools when facts, papers, news or data would help. Answer in at most 300 words: the key " +
    "findings, naming the sources you relied on by title.",
  synthesizer:
    "Role: synthesizer. You combine the findings of several research agents into one coherent synthesis: what they " +
    "agree on, where they differ, what is missing. At most 400 words; keep the sources they name.",
  summary:
    "Role: summary. You write the executive summary of a research project from its syntheses: the answer first, " +
    "then the key findings as short bullet points, then open questions. At most 500 words.",
};

// Angles any task can be researched from: the padding when the breakdown names too few subtasks.
const ANGLES = [
  "Background, definitions and history",
  "Current state and recent developments",
  "Key people, organisations and sources",
  "Evidence, data and statistics",
  "Debates, criticisms and risks",
  "Practical applications and examples",
  "Comparisons with alternatives",
  "Open questions and future outlook",
];

const ITEM = /^\s*(?:\(?\d{1,3}\s*[.):]|[-*•+]|#{1,6}\s*\d{1,3}[.):]?)\s+(.*\S)\s*$/;

const cleanItem = (s: string) =>
  s
    .replace(/\*\*|__/g, "")
    .replace(/^(?:subtask|task|step|question)\s*\d*\s*[:.)-]\s*/i, "")
    .trim()
    .slice(0, 500);

/**
 * The subtasks in a breakdown's answer: its numbered or bulleted items (any other line if it wrote no
 * list), markdown emphasis and "Subtask 3:" labels dropped, each once; trimmed to `n`, or padded with
 * generic angles of the task.
 */
export function parseSubtasks(text: string, n: number, task: string): string[] {
  const lines = text.split(/\r?\n/);
  let items = lines.flatMap((line) => {
    const m = ITEM.exec(line);
    return m ? [cleanItem(m[1]!)] : [];
  });
  if (!items.length) items = lines.map(cleanItem).filter((l) => l.length >= 3 && !l.endsWith(":"));
  const seen = new Set<string>();
  const subtasks = items.filter((s) => {
    const key = s.toLowerCase();
    if (!s || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const topic = task.trim().replace(/\s+/g, " ").slice(0, 200);
  for (let i = 0; subtasks.length < n; i++) {
    const round = Math.floor(i / ANGLES.length);
    subtasks.push(`${ANGLES[i % ANGLES.length]} of: ${topic}${round ? ` (part ${round + 1})` : ""}`);
  }
  return subtasks.slice(0, n);
}

/** A title for a task given none: its first line, cut at a word near 80 characters. */
export function titleOf(task: string): string {
  const line = task.trim().split(/\r?\n/)[0]!.trim();
  if (line.length <= 80) return line;
  const cut = line.slice(0, 80);
  return `${cut.slice(0, cut.lastIndexOf(" ") > 40 ? cut.lastIndexOf(" ") : 80)}…`;
}

const NO_USAGE: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

/**
 * dream-cascade: a breakdown agent splits the task into `num_agents` subtasks; workers
 * research them in parallel with the tool registry; a synthesiser per group of up to five completed
 * workers combines their findings; a summary agent writes the executive summary. Workers failing is
 * reported and the rest go on; all of them failing, or the breakdown, a synthesis step with nothing
 * left, or the summary failing, rejects. A cancel (deps.signal) rejects with its reason at once.
 */
export async function runCascade(input: CascadeInput, deps: AgentDeps): Promise<CascadeResult> {
  const startedAt = new Date();
  const t0 = performance.now();
  const since = (t: number) => Math.round(performance.now() - t);
  const tiers = tierPlan(input.budget_tier);
  const models = researchModels(input.provider_name, input.budget_tier);
  const tally = usageTally();
  const n = input.num_agents;
  const failures: Failure[] = [];

  // Breakdown: not a node of the live tree (that starts with the subtasks), but a metered call.
  deps.signal.throwIfAborted();
  const breakdown = await inPhase(deps, "research.breakdown", ({ llm, signal, trace }) =>
    runAgent(
      { llm, signal, trace },
      tally,
      { id: "breakdown", role: "breakdown", tier: tiers.synthesizer, model: models.synthesizer, title: "Breakdown" },
      {
        system: PROMPTS.breakdown(n),
        prompt: `Task: ${input.task}\n\nWrite exactly ${n} subtasks as a numbered list.`,
      },
    ),
  );
  if (!breakdown.ok) throw new GatewayError(502, `the breakdown agent failed: ${breakdown.error}`);
  const breakdownMs = since(t0);
  const subtasks = parseSubtasks(breakdown.reply.content, n, input.task);
  deps.emit({ type: "subtasks_ready", subtasks });

  const groupOf = (i: number) => Math.floor(i / GROUP_SIZE) + 1;
  const tWorkers = performance.now();
  const agents: WorkerResult[] = await inPhase(deps, "research.workers", (phase) =>
    pool(subtasks, CONCURRENCY, deps.signal, async (subtask, i) => {
      const info: AgentInfo = {
        id: `worker-${i + 1}`,
        role: "worker",
        tier: tiers.worker,
        model: models.worker,
        title: subtask,
        parent: `synth-${groupOf(i)}`,
      };
      const outcome = await runAgent(phase, tally, info, {
        system: PROMPTS.worker,
        prompt: `Overall task: ${input.task}\n\nYour subtask: ${subtask}`,
        tools: TOOLS,
        maxSteps: WORKER_MAX_STEPS,
        toolContext: deps.toolContext,
      });
      return workerResult(info, subtask, outcome);
    }),
  );
  const workersMs = since(tWorkers);
  for (const a of agents) if (a.status === "failed") failures.push({ agent: a.id, error: a.error! });
  const completed = agents.filter((a) => a.status === "completed");
  if (!completed.length) throw new GatewayError(502, `all ${n} worker agents failed: ${agents[0]!.error}`);

  // One synthesiser per group that has a completed worker; a group whose workers all failed has nothing to say.
  const groups = Array.from({ length: groupOf(n - 1) }, (_, g) => ({
    id: `synth-${g + 1}`,
    members: agents.filter((a, i) => a.status === "completed" && groupOf(i) === g + 1),
  })).filter((g) => g.members.length);
  const tSynth = performance.now();
  const outcomes = await inPhase(deps, "research.synthesis", (phase) =>
    pool(groups, CONCURRENCY, deps.signal, async ({ id, members }) => {
      const info: AgentInfo = {
        id,
        role: "synthesizer",
        tier: tiers.synthesizer,
        model: models.synthesizer,
        title: `Synthesis of ${members.map((m) => m.id).join(", ")}`,
        parent: "summary",
      };
      const findings = members.map((m) => `### ${m.id}: ${m.subtask}\n${clip(m.output!)}`).join("\n\n");
      const outcome = await runAgent(
        phase,
        tally,
        info,
        { system: PROMPTS.synthesizer, prompt: `Overall task: ${input.task}\n\nFindings:\n\n${findings}` },
        "synthesis_complete",
      );
      return { info, members, outcome };
    }),
  );
  const synthesisMs = since(tSynth);
  const syntheses: SynthesisResult[] = [];
  for (const { info, members, outcome } of outcomes) {
    if (!outcome.ok) failures.push({ agent: info.id, error: outcome.error });
    else
      syntheses.push({
        id: info.id,
        agents: members.map((m) => m.id),
        tier: info.tier,
        model: outcome.reply.model,
        output: outcome.reply.content,
        duration_ms: outcome.duration_ms,
        usage: outcome.reply.usage,
      });
  }
  if (!syntheses.length)
    throw new GatewayError(502, `all ${outcomes.length} synthesis agents failed: ${failures.at(-1)!.error}`);

  const tSummary = performance.now();
  const summary = await inPhase(deps, "research.summary", (phase) =>
    runAgent(
      phase,
      tally,
      { id: "summary", role: "summary", tier: tiers.summary, model: models.summary, title: "Executive summary" },
      {
        system: PROMPTS.summary,
        prompt: `Task: ${input.task}\n\nSyntheses:\n\n${syntheses.map((s) => `### ${s.id}\n${clip(s.output)}`).join("\n\n")}`,
      },
      "summary_complete",
    ),
  );
  if (!summary.ok) throw new GatewayError(502, `the summary agent failed: ${summary.error}`);
  const summaryMs = since(tSummary);

  return {
    kind: "dream-cascade",
    title: input.title?.trim() || titleOf(input.task),
    task: input.task,
    provider: input.provider_name,
    budget_tier: input.budget_tier,
    models,
    subtasks,
    agents,
    syntheses,
    executive_summary: summary.reply.content,
    sources: dedupeSources(completed.flatMap((a) => a.sources)),
    failures,
    usage: tally.summary(),
    timings: {
      started_at: startedAt.toISOString(),
      completed_at: new Date().toISOString(),
      duration_ms: since(t0),
      breakdown_ms: breakdownMs,
      workers_ms: workersMs,
      synthesis_ms: synthesisMs,
      summary_ms: summaryMs,
    },
  };
}

function workerResult(info: AgentInfo, subtask: string, outcome: AgentOutcome): WorkerResult {
  const base = { id: info.id, role: "worker" as const, subtask, tier: info.tier };
  if (!outcome.ok)
    return {
      ...base,
      model: info.model,
      status: "failed",
      error: outcome.error,
      tool_calls: [],
      sources: [],
      duration_ms: outcome.duration_ms,
      usage: NO_USAGE,
    };
  const { reply } = outcome;
  return {
    ...base,
    model: reply.model,
    status: "completed",
    output: reply.content,
    tool_calls: reply.toolCalls,
    sources: dedupeSources(reply.sources),
    duration_ms: outcome.duration_ms,
    usage: reply.usage,
  };
}
