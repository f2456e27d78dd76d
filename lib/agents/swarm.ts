import { GatewayError } from "../errors.ts";
import type { Usage } from "../llm/chat-types.ts";
import { runToolCall, type Tool } from "../tools/tool.ts";
import { toolByName } from "../tools/tools.ts";
import { pool, untilAborted } from "../abortable.ts";
import type { TraceScope } from "../observability/trace-scope.ts";
import { agentSpan, clip, errorMessage, failureType, inPhase, runAgent } from "./agent-run.ts";
import { usageTally } from "./cost.ts";
import { dedupeSources, sourcesFrom } from "./sources.ts";
import { researchModels, tierPlan } from "./tiers.ts";
import type {
  AgentDeps,
  AgentInfo,
  SearcherResult,
  SearcherType,
  Source,
  SwarmInput,
  SwarmResult,
  ToolCallRecord,
} from "./types.ts";

/**
 * The searchers' kinds, in the order agents are given them (cycling past the last), and the registry
 * search tools each runs with the query. The first five need no operator key but news.
 */
export const SEARCHER_TYPES: readonly SearcherType[] = [
  "academic",
  "news",
  "technical",
  "general",
  "science",
  "social",
  "books",
];
export const SEARCHER_TOOLS: Record<SearcherType, readonly string[]> = {
  academic: ["arxiv_search", "semantic_scholar_search"],
  news: ["news_search"],
  technical: ["github_search_repositories"],
  general: ["wikipedia_search"],
  science: ["nasa_search_images"],
  social: ["youtube_search"],
  books: ["openlibrary_search"],
};

/** Searchers at work at once (each runs its tools in parallel too). */
export const SWARM_CONCURRENCY = 6;
export const RESULTS_PER_TOOL = 5;

export const SWARM_PROMPTS = {
  searcher: (type: SearcherType) =>
    `Role: searcher. You are the ${type} search agent of a research swarm. From the search results given, write what ` +
    `they say about the query in at most 200 words, naming the sources you use by title. If they do not answer it, say so.`,
  merger:
    "Role: merger. You merge the reports of several search agents into one answer to the query: the answer first, " +
    "then the supporting points, naming their sources by title. Note where reports disagree. At most 500 words.",
};

export const searcherType = (index: number): SearcherType => SEARCHER_TYPES[index % SEARCHER_TYPES.length]!;

const toolsOf = (type: SearcherType): Tool[] => SEARCHER_TOOLS[type].map((name) => toolByName(name)!);

/** A tool's result as the searcher's model reads it: one line per hit (title, address, summary), else its JSON. */
export function renderFindings(tool: string, result: unknown): string {
  const hits = (result as { results?: unknown })?.results;
  if (!Array.isArray(hits)) return `## ${tool}\n${clip(JSON.stringify(result ?? null), 3000)}`;
  if (!hits.length) return `## ${tool}\nNo results.`;
  const lines = hits.map((h: Record<string, unknown>) => {
    const summary = typeof h.summary === "string" ? `\n  ${clip(h.summary.replace(/\s+/g, " "), 300)}` : "";
    return `- ${String(h.title ?? "untitled")}${typeof h.url === "string" ? ` (${h.url})` : ""}${summary}`;
  });
  return `## ${tool}\n${lines.join("\n")}`;
}

const NO_USAGE: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

/**
 * dream-swarm: `num_agents` typed searchers each run their registry search tools with the
 * query in parallel (a failing tool is recorded, not fatal), then summarise what they found on the
 * worker tier; a merge agent on the summary tier writes one answer from the searchers' reports. A
 * searcher whose tools all failed fails; all of them failing rejects. Cancel as for the cascade.
 */
export async function runSwarm(input: SwarmInput, deps: AgentDeps): Promise<SwarmResult> {
  const startedAt = new Date();
  const t0 = performance.now();
  const tiers = tierPlan(input.budget_tier);
  const models = researchModels(input.provider_name, input.budget_tier);
  const tally = usageTally();
  const query = input.query.trim();

  // Traced, a searcher is one agent span over its tools and its model call (runAgent's own span would
  // cover the model call alone).
  const searcher = async (index: number, phase: TraceScope | undefined): Promise<SearcherResult> => {
    const type = searcherType(index);
    const info: AgentInfo = {
      id: `searcher-${index + 1}`,
      role: "searcher",
      tier: tiers.worker,
      model: models.worker,
      title: `${type[0]!.toUpperCase()}${type.slice(1)} search`,
      parent: "merge",
    };
    deps.signal.throwIfAborted();
    const span = phase && agentSpan(phase, info);
    try {
      const result = await search(type, info, span);
      if (result.status === "failed") span?.fail("agent_failed");
      return result;
    } catch (err) {
      span?.fail(failureType(err, deps.signal));
      throw err;
    } finally {
      span?.end();
    }
  };

  const search = async (type: SearcherType, info: AgentInfo, span: TraceScope | undefined): Promise<SearcherResult> => {
    deps.emit({ type: "agent_start", agent: info });
    const started = performance.now();
    const base = { id: info.id, role: "searcher" as const, type, tier: info.tier };
    const runs = await Promise.all(toolsOf(type).map((tool) => runTool(tool, query, deps, span)));
    const tool_calls = runs.map((r) => r.record);
    const answered = runs.filter((r) => r.record.ok);
    if (!answered.length) {
      const error = `no search tool answered: ${runs[0]!.record.error}`;
      deps.emit({ type: "agent_failed", agent: info, error });
      const duration_ms = Math.round(performance.now() - started);
      return {
        ...base,
        model: info.model,
        status: "failed",
        error,
        tool_calls,
        sources: [],
        duration_ms,
        usage: NO_USAGE,
      };
    }
    const sources = dedupeSources(answered.flatMap((r) => r.sources));
    const outcome = await runAgent({ llm: deps.llm, signal: deps.signal }, tally, info, {
      system: SWARM_PROMPTS.searcher(type),
      prompt: `Query: ${query}\n\nSearch results:\n\n${answered.map((r) => renderFindings(r.record.tool, r.result)).join("\n\n")}`,
      trace: span,
    });
    const duration_ms = Math.round(performance.now() - started);
    if (!outcome.ok) {
      deps.emit({ type: "agent_failed", agent: info, error: outcome.error });
      return {
        ...base,
        model: info.model,
        status: "failed",
        error: outcome.error,
        tool_calls,
        sources,
        duration_ms,
        usage: NO_USAGE,
      };
    }
    deps.emit({
      type: "agent_complete",
      agent: { ...info, model: outcome.reply.model, duration_ms, tool_calls: tool_calls.length },
    });
    return {
      ...base,
      model: outcome.reply.model,
      status: "completed",
      output: outcome.reply.content,
      tool_calls,
      sources,
      duration_ms,
      usage: outcome.reply.usage,
    };
  };

  const indexes = Array.from({ length: input.num_agents }, (_, i) => i);
  const agents = await inPhase(deps, "research.search", ({ trace }) =>
    pool(indexes, SWARM_CONCURRENCY, deps.signal, (index) => searcher(index, trace)),
  );
  const failures = agents.flatMap((a) => (a.status === "failed" ? [{ agent: a.id, error: a.error! }] : []));
  const completed = agents.filter((a) => a.status === "completed");
  if (!completed.length) throw new GatewayError(502, `all ${agents.length} search agents failed: ${agents[0]!.error}`);

  const reports = completed.map((a) => `### ${a.id} (${a.type})\n${clip(a.output!)}`).join("\n\n");
  const merge = await inPhase(deps, "research.merge", (phase) =>
    runAgent(
      phase,
      tally,
      { id: "merge", role: "merger", tier: tiers.summary, model: models.summary, title: "Merged answer" },
      { system: SWARM_PROMPTS.merger, prompt: `Query: ${query}\n\nReports:\n\n${reports}` },
      "summary_complete",
    ),
  );
  if (!merge.ok) throw new GatewayError(502, `the merge agent failed: ${merge.error}`);

  return {
    kind: "dream-swarm",
    query,
    provider: input.provider_name,
    budget_tier: input.budget_tier,
    agents,
    answer: merge.reply.content,
    sources: dedupeSources(completed.flatMap((a) => a.sources)),
    failures,
    usage: tally.summary(),
    timings: {
      started_at: startedAt.toISOString(),
      completed_at: new Date().toISOString(),
      duration_ms: Math.round(performance.now() - t0),
    },
  };
}

type ToolRun = { record: ToolCallRecord; result?: unknown; sources: Source[] };

/**
 * One search tool with the query; its failure is recorded (a cancel is not: it ends the run). `trace`:
 * the searcher's span, which the tool's span goes under.
 */
async function runTool(tool: Tool, query: string, deps: AgentDeps, trace: TraceScope | undefined): Promise<ToolRun> {
  const args = { query: query.slice(0, 300), limit: RESULTS_PER_TOOL };
  const context = trace ? { ...deps.toolContext, trace } : deps.toolContext;
  try {
    const result = await untilAborted(runToolCall(tool, tool.input.parse(args), context), deps.signal);
    return { record: { tool: tool.name, args, ok: true }, result, sources: sourcesFrom(result, tool.module) };
  } catch (err) {
    if (deps.signal.aborted) throw deps.signal.reason;
    return { record: { tool: tool.name, args, ok: false, error: errorMessage(err) }, sources: [] };
  }
}
