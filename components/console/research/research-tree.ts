import { graphlib, layout } from "@dagrejs/dagre";
import { ResearchResult, type ResearchKind } from "./research-result";

/**
 * The research console's state, built by folding the task's stream events (contract "HTTP": agent
 * events, status heartbeats, one closing event) into agents and run status. Plain functions so the
 * tree the browser draws is tested without one.
 */

export type AgentState = "waiting" | "running" | "done" | "failed";
export type RunStatus =
  "idle" | "starting" | "pending" | "running" | "completed" | "failed" | "cancelled" | "budget_exceeded" | "timeout";

/** One node of the live tree: workers' parent is their synthesizer, synthesizers' parent is "summary". */
export type AgentNode = {
  id: string;
  role: string;
  title: string;
  model?: string;
  tier?: string;
  parent?: string;
  state: AgentState;
  durationMs?: number;
  toolCalls?: number;
  error?: string;
};

export type RunState = {
  kind: ResearchKind | null;
  taskId: string | null;
  status: RunStatus;
  subtasks: string[];
  agents: AgentNode[];
  result: ResearchResult | null;
  error: string | null;
};

type AgentInfo = { id: string; role: string; title: string; model?: string; tier?: string; parent?: string };

export type RunEvent =
  | { type: "reset"; kind: ResearchKind }
  | { type: "started"; taskId: string }
  | { type: "status"; status: string }
  | { type: "subtasks_ready"; subtasks: string[] }
  | { type: "agent_start"; agent: AgentInfo }
  | {
      type: "agent_complete" | "synthesis_complete" | "summary_complete";
      agent: AgentInfo & { duration_ms?: number; tool_calls?: number };
    }
  | { type: "agent_failed"; agent: AgentInfo; error: string }
  | { type: "complete"; result: unknown }
  | { type: "error"; error: string | null }
  /** The key's hard-stop budget ran out mid-run: the agents that finished stay as they are. */
  | { type: "budget_exceeded"; error: string | null }
  | { type: "cancelled" }
  | { type: "timeout" };

export const IDLE: RunState = {
  kind: null,
  taskId: null,
  status: "idle",
  subtasks: [],
  agents: [],
  result: null,
  error: null,
};

const TERMINAL: ReadonlySet<RunStatus> = new Set(["completed", "failed", "cancelled", "budget_exceeded", "timeout"]);
const AGENT_EVENTS = new Set([
  "agent_start",
  "agent_complete",
  "synthesis_complete",
  "summary_complete",
  "agent_failed",
]);
const CLOSING = new Set(["complete", "error", "budget_exceeded", "cancelled", "timeout"]);

export function isTerminal(status: RunStatus): boolean {
  return TERMINAL.has(status);
}

export function isClosing(event: RunEvent): boolean {
  return CLOSING.has(event.type);
}

type Raw = Record<string, unknown>;
const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const count = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

function agentInfo(v: unknown): AgentInfo | null {
  if (!v || typeof v !== "object") return null;
  const a = v as Raw;
  const id = text(a.id);
  if (!id) return null;
  return {
    id,
    role: text(a.role) ?? roleOf(id),
    title: text(a.title) ?? id,
    model: text(a.model),
    tier: text(a.tier),
    parent: text(a.parent),
  };
}

/**
 * One stream message (`data:` JSON) as events: the task status every message carries, then the event
 * itself. Anything unreadable or unknown yields nothing, so a newer server's extra events are skipped.
 */
export function parseMessage(data: string): RunEvent[] {
  let raw: Raw;
  try {
    raw = JSON.parse(data) as Raw;
  } catch {
    return [];
  }
  if (!raw || typeof raw !== "object") return [];
  const events: RunEvent[] = [];
  const status = text(raw.status);
  if (status) events.push({ type: "status", status });
  const type = text(raw.type);
  if (type === "subtasks_ready" && Array.isArray(raw.subtasks)) {
    events.push({ type, subtasks: raw.subtasks.filter((s): s is string => typeof s === "string") });
  } else if (type && AGENT_EVENTS.has(type)) {
    const agent = agentInfo(raw.agent);
    const extra = raw.agent as Raw;
    if (agent && type === "agent_failed") events.push({ type, agent, error: text(raw.error) ?? "failed" });
    else if (agent && type === "agent_start") events.push({ type, agent });
    else if (agent)
      events.push({
        type: type as "agent_complete",
        agent: { ...agent, duration_ms: count(extra.duration_ms), tool_calls: count(extra.tool_calls) },
      });
  } else if (type === "complete") events.push({ type, result: raw.result });
  // A budget's stop closes the stream as an error whose status says which.
  else if (type === "error")
    events.push({ type: status === "budget_exceeded" ? status : type, error: text(raw.error) ?? null });
  else if (type === "cancelled" || type === "timeout") events.push({ type });
  return events;
}

/** What an id names when the event does not say (a parent seen before it starts). */
export function roleOf(id: string): string {
  if (id.startsWith("worker")) return "worker";
  if (id.startsWith("synth")) return "synthesizer";
  if (id.startsWith("searcher")) return "searcher";
  if (id === "merge") return "merger";
  return id;
}

function upsert(agents: AgentNode[], node: AgentNode): AgentNode[] {
  const i = agents.findIndex((a) => a.id === node.id);
  if (i === -1) return [...agents, node];
  return agents.map((a, j) => (j === i ? { ...a, ...node } : a));
}

/** Adds a waiting node for a parent not started yet, so the child's edge has somewhere to go. */
function withParent(agents: AgentNode[], parent: string | undefined): AgentNode[] {
  if (!parent || agents.some((a) => a.id === parent)) return agents;
  return [...agents, { id: parent, role: roleOf(parent), title: parent, state: "waiting" }];
}

function applyAgent(agents: AgentNode[], event: Extract<RunEvent, { agent: AgentInfo }>): AgentNode[] {
  const { agent } = event;
  const known = agents.find((a) => a.id === agent.id);
  const info = { ...agent, title: agent.title === agent.id && known ? known.title : agent.title };
  let node: AgentNode;
  if (event.type === "agent_start") {
    // A replayed start (the stream replays past events on reconnect) never undoes a finish.
    const finished = known?.state === "done" || known?.state === "failed";
    node = { ...info, state: finished ? known.state : "running" };
  } else if (event.type === "agent_failed") {
    node = { ...info, state: "failed", error: event.error };
  } else {
    node = { ...info, state: "done", durationMs: event.agent.duration_ms, toolCalls: event.agent.tool_calls };
  }
  return withParent(upsert(agents, node), agent.parent);
}

/**
 * The tree a finished result describes: syntheses name the workers they merged, the summary sits above
 * the syntheses, a swarm's searchers feed "merge". Fills in what a synchronous run or a missed event
 * never showed; nodes the stream already finished keep their state.
 */
export function agentsFromResult(result: ResearchResult): AgentNode[] {
  const parentOf = new Map<string, string>();
  if (result.kind === "dream-cascade")
    for (const s of result.syntheses) for (const a of s.agents) parentOf.set(a, s.id);
  const nodes: AgentNode[] = result.agents.map((a) => ({
    id: a.id,
    role: a.role,
    title: a.subtask ?? a.type ?? a.id,
    model: a.model,
    tier: a.tier,
    parent: result.kind === "dream-swarm" ? "merge" : parentOf.get(a.id),
    state: a.status === "failed" ? "failed" : "done",
    durationMs: a.duration_ms,
    toolCalls: a.tool_calls.length,
    error: a.error,
  }));
  if (result.kind === "dream-swarm") return [...nodes, { id: "merge", role: "merger", title: "merge", state: "done" }];
  const syntheses: AgentNode[] = result.syntheses.map((s) => ({
    id: s.id,
    role: "synthesizer",
    title: s.id,
    model: s.model,
    tier: s.tier,
    parent: "summary",
    state: "done",
    durationMs: s.duration_ms,
  }));
  return [...nodes, ...syntheses, { id: "summary", role: "summary", title: "summary", state: "done" }];
}

function reconcile(agents: AgentNode[], result: ResearchResult): AgentNode[] {
  let merged = agents;
  for (const node of agentsFromResult(result)) {
    const known = merged.find((a) => a.id === node.id);
    if (!known) merged = [...merged, node];
    else if (known.state === "waiting" || known.state === "running")
      merged = upsert(merged, { ...node, title: known.title, parent: known.parent ?? node.parent });
  }
  return merged;
}

const RUNNING: ReadonlySet<string> = new Set(["pending", "running"]);

export function reduceRun(state: RunState, event: RunEvent): RunState {
  if (event.type === "reset") return { ...IDLE, kind: event.kind, status: "starting" };
  // After the run closes (a local cancel included) late messages change nothing.
  if (isTerminal(state.status)) return state;
  switch (event.type) {
    case "started":
      return { ...state, taskId: event.taskId, status: "pending" };
    case "status":
      return RUNNING.has(event.status) ? { ...state, status: event.status as RunStatus } : state;
    case "subtasks_ready":
      return { ...state, subtasks: event.subtasks };
    case "agent_start":
    case "agent_complete":
    case "synthesis_complete":
    case "summary_complete":
    case "agent_failed":
      return { ...state, agents: applyAgent(state.agents, event) };
    case "complete": {
      const parsed = ResearchResult.safeParse({ kind: state.kind, ...(event.result as object) });
      if (!parsed.success)
        return { ...state, status: "failed", error: "The task finished with a result this console cannot read." };
      const subtasks = parsed.data.kind === "dream-cascade" ? parsed.data.subtasks : [];
      return {
        ...state,
        status: "completed",
        result: parsed.data,
        subtasks: state.subtasks.length ? state.subtasks : subtasks,
        agents: reconcile(state.agents, parsed.data),
      };
    }
    case "error":
      return { ...state, status: "failed", error: event.error };
    case "budget_exceeded":
      return { ...state, status: "budget_exceeded", error: event.error };
    case "cancelled":
      return { ...state, status: "cancelled" };
    case "timeout":
      return { ...state, status: "timeout" };
  }
}

const STATE_WORD: Record<AgentState, string> = {
  waiting: "Waiting",
  running: "Running",
  done: "Done",
  failed: "Failed",
};

export function stateWord(state: AgentState): string {
  return STATE_WORD[state];
}

/** The one line the status region announces. */
export function describeRun(state: RunState): string {
  // Done and failed apart: "5 of 6 done, 1 failed", never "6 of 6 finished, 1 failed".
  const done = state.agents.filter((a) => a.state === "done").length;
  const failed = state.agents.filter((a) => a.state === "failed").length;
  const tally = state.agents.length
    ? ` ${done} of ${state.agents.length} agents done${failed ? `, ${failed} failed` : ""}.`
    : "";
  switch (state.status) {
    case "idle":
      return "Nothing running.";
    case "starting":
      return "Starting…";
    case "pending":
      return `Queued.${tally}`;
    case "running":
      return `Running.${tally}`;
    case "completed":
      return `Completed.${tally}`;
    case "failed":
      return state.error ? `Failed: ${state.error}` : "Failed.";
    case "cancelled":
      return "Cancelled";
    case "budget_exceeded":
      return `Stopped: the key's monthly budget ran out.${tally}`;
    case "timeout":
      return "Stopped watching after 600 s; the task may still be running.";
  }
}

export type TreeEdge = { id: string; source: string; target: string };

/** Edges run the way the work flows: breakdown → workers → synthesizers → summary; searchers → merge. */
export function edgesOf(agents: AgentNode[]): TreeEdge[] {
  const ids = new Set(agents.map((a) => a.id));
  const edges: TreeEdge[] = [];
  if (ids.has("breakdown"))
    for (const a of agents)
      if (a.role === "worker") edges.push({ id: `breakdown>${a.id}`, source: "breakdown", target: a.id });
  for (const a of agents)
    if (a.parent && ids.has(a.parent)) edges.push({ id: `${a.id}>${a.parent}`, source: a.id, target: a.parent });
  return edges;
}

export const NODE_WIDTH = 190;
export const NODE_HEIGHT = 72;

/** Top-to-bottom positions from dagre, as top-left corners (React Flow's convention). */
export function layoutTree(agents: AgentNode[], edges: TreeEdge[]): Map<string, { x: number; y: number }> {
  const g = new graphlib.Graph();
  g.setGraph({ rankdir: "TB", nodesep: 24, ranksep: 56 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const a of agents) g.setNode(a.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const e of edges) g.setEdge(e.source, e.target);
  layout(g);
  return new Map(
    agents.map((a) => {
      const { x, y } = g.node(a.id);
      return [a.id, { x: x - NODE_WIDTH / 2, y: y - NODE_HEIGHT / 2 }];
    }),
  );
}
