// The shapes of the research core: agents, their calls and replies, the live events, and
// the results of dream-cascade and dream-swarm. Shared by the orchestrators, the durable tasks that
// run them, the routes and the research console.
import type { Tier } from "../upstream/llm-catalogue.ts";
import type { TraceScope } from "../observability/trace-scope.ts";
import type { Usage } from "../llm/chat-types.ts";
import type { Tool, ToolContext } from "../tools/tool.ts";

export type { Tier };

export type AgentRole = "breakdown" | "worker" | "synthesizer" | "summary" | "searcher" | "merger" | "planner" | "chat";
export type Source = { title: string; url?: string; source: string };
export type ToolCallRecord = { tool: string; args: unknown; ok: boolean; error?: string };

export type AgentCall = {
  agentId: string;
  role: AgentRole;
  tier: Tier;
  system: string;
  prompt: string;
  tools?: readonly Tool[];
  maxSteps?: number;
  signal: AbortSignal;
  /** What the tools run with (their upstream cache); needed when `tools` is given. */
  toolContext?: ToolContext;
  /** The agent's span when tracing is on: its model call's attempts and its tool calls go under it. */
  trace?: TraceScope;
};

export type AgentReply = {
  content: string;
  provider: string;
  model: string;
  usage: Usage;
  toolCalls: ToolCallRecord[];
  sources: Source[];
};

export type AgentLlm = (call: AgentCall) => Promise<AgentReply>;

/** The node of the live tree: workers' parent is their synthesizer, synthesizers' parent is "summary". */
export type AgentInfo = { id: string; role: AgentRole; tier: Tier; model: string; title: string; parent?: string };

export type ResearchEvent =
  | { type: "subtasks_ready"; subtasks: string[] }
  | { type: "agent_start"; agent: AgentInfo }
  | {
      type: "agent_complete" | "synthesis_complete" | "summary_complete";
      agent: AgentInfo & { duration_ms: number; tool_calls: number };
    }
  | { type: "agent_failed"; agent: AgentInfo; error: string };

export type AgentDeps = {
  llm: AgentLlm;
  /** May be called synchronously; never throws. */
  emit(event: ResearchEvent): void;
  /** Cancel: stop starting agents, abort in-flight calls, reject with signal.reason. */
  signal: AbortSignal;
  /** For tools run directly (swarm searchers) and handed to the agents' tool calls. */
  toolContext: ToolContext;
  /** The run's span when tracing is on (a task's, a request's): its phases' and agents' spans go under it. */
  trace?: TraceScope;
};

export type BudgetTier = Tier;

export type CascadeInput = {
  task: string;
  title?: string;
  num_agents: number;
  provider_name: string;
  budget_tier: BudgetTier;
};

export type SwarmInput = {
  query: string;
  num_agents: number;
  provider_name: string;
  budget_tier: BudgetTier;
};

export type TierUsage = { calls: number; prompt_tokens: number; completion_tokens: number };

export type ResearchUsage = {
  by_tier: Record<Tier, TierUsage>;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  estimated_cost_usd: number;
};

export type AgentStatus = "completed" | "failed";
export type Failure = { agent: string; error: string };

export type WorkerResult = {
  id: string;
  role: "worker";
  subtask: string;
  tier: Tier;
  model: string;
  status: AgentStatus;
  output?: string;
  error?: string;
  tool_calls: ToolCallRecord[];
  sources: Source[];
  duration_ms: number;
  usage: Usage;
};

export type SynthesisResult = {
  id: string;
  agents: string[];
  tier: Tier;
  model: string;
  output: string;
  duration_ms: number;
  usage: Usage;
};

export type CascadeResult = {
  kind: "dream-cascade";
  title: string;
  task: string;
  provider: string;
  budget_tier: BudgetTier;
  models: { worker: string; synthesizer: string; summary: string };
  subtasks: string[];
  agents: WorkerResult[];
  syntheses: SynthesisResult[];
  executive_summary: string;
  sources: Source[];
  failures: Failure[];
  usage: ResearchUsage;
  timings: {
    started_at: string;
    completed_at: string;
    duration_ms: number;
    breakdown_ms: number;
    workers_ms: number;
    synthesis_ms: number;
    summary_ms: number;
  };
};

export type SearcherType = "academic" | "news" | "technical" | "general" | "science" | "social" | "books";

export type SearcherResult = {
  id: string;
  role: "searcher";
  type: SearcherType;
  tier: Tier;
  model: string;
  status: AgentStatus;
  output?: string;
  error?: string;
  tool_calls: ToolCallRecord[];
  sources: Source[];
  duration_ms: number;
  usage: Usage;
};

export type SwarmResult = {
  kind: "dream-swarm";
  query: string;
  provider: string;
  budget_tier: BudgetTier;
  agents: SearcherResult[];
  answer: string;
  sources: Source[];
  failures: Failure[];
  usage: ResearchUsage;
  timings: { started_at: string; completed_at: string; duration_ms: number };
};
