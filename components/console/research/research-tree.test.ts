import { describe, expect, it } from "vitest";
import {
  agentsFromResult,
  describeRun,
  edgesOf,
  IDLE,
  isClosing,
  layoutTree,
  NODE_HEIGHT,
  parseMessage,
  reduceRun,
  type RunEvent,
  type RunState,
} from "./research-tree";
import { ResearchResult } from "./research-result";

const agent = (id: string, parent?: string, role = id.replace(/-\d+$/, "")) => ({
  id,
  role,
  tier: "cheap",
  model: "m",
  title: `${id} title`,
  ...(parent ? { parent } : {}),
});
const msg = (o: object) => JSON.stringify({ task_id: "research_0123456789ab", status: "running", ...o });

/** Folds stream messages into a run that started as a cascade. */
function fold(
  messages: string[],
  from: RunState = reduceRun(IDLE, { type: "reset", kind: "dream-cascade" }),
): RunState {
  return messages
    .flatMap(parseMessage)
    .reduce(reduceRun, reduceRun(from, { type: "started", taskId: "research_0123456789ab" }));
}

const CASCADE_RESULT = {
  kind: "dream-cascade",
  title: "Tides",
  task: "Why tides?",
  subtasks: ["moon", "sun"],
  agents: [
    {
      id: "worker-1",
      role: "worker",
      subtask: "moon",
      status: "completed",
      output: "Moon pulls.",
      tool_calls: [],
      sources: [],
      duration_ms: 5,
    },
    {
      id: "worker-2",
      role: "worker",
      subtask: "sun",
      status: "failed",
      error: "boom",
      tool_calls: [],
      sources: [],
      duration_ms: 3,
    },
  ],
  syntheses: [{ id: "synth-1", agents: ["worker-1"], output: "Mostly the moon.", duration_ms: 4 }],
  executive_summary: "The moon, mostly.",
  sources: [{ title: "Tide", url: "https://en.wikipedia.org/wiki/Tide", source: "wikipedia" }],
  failures: [{ agent: "worker-2", error: "boom" }],
  usage: {
    by_tier: { cheap: { calls: 2, prompt_tokens: 10, completion_tokens: 5 } },
    prompt_tokens: 10,
    completion_tokens: 5,
    total_tokens: 15,
    estimated_cost_usd: 0.0012,
  },
  timings: { started_at: "2025-01-01T00:00:00Z", duration_ms: 1200 },
};

describe("research stream messages", () => {
  it("yields the task status, then the event, and skips what it cannot read", () => {
    expect(parseMessage(msg({ type: "subtasks_ready", subtasks: ["a", 3, "b"] }))).toEqual([
      { type: "status", status: "running" },
      { type: "subtasks_ready", subtasks: ["a", "b"] },
    ]);
    expect(
      parseMessage(msg({ type: "agent_failed", agent: agent("worker-1", "synth-1"), error: "rate limited" })),
    ).toEqual([
      { type: "status", status: "running" },
      { type: "agent_failed", agent: agent("worker-1", "synth-1"), error: "rate limited" },
    ]);
    expect(parseMessage("not json")).toEqual([]);
    expect(parseMessage(msg({ type: "agent_start", agent: { role: "worker" } }))).toEqual([
      { type: "status", status: "running" },
    ]);
    expect(parseMessage(JSON.stringify({ type: "something_new" }))).toEqual([]);
    expect(parseMessage(JSON.stringify({ type: "cancelled", status: "cancelled", error: "Cancelled" })).at(-1)).toEqual(
      {
        type: "cancelled",
      },
    );
  });

  it("keeps durations and tool-call counts of finished agents", () => {
    const [, done] = parseMessage(
      msg({ type: "synthesis_complete", agent: { ...agent("synth-1", "summary"), duration_ms: 1500, tool_calls: 0 } }),
    );
    expect(done).toEqual({
      type: "synthesis_complete",
      agent: { ...agent("synth-1", "summary"), duration_ms: 1500, tool_calls: 0 },
    });
  });
});

describe("the run reducer", () => {
  const running = fold([
    msg({ type: "subtasks_ready", subtasks: ["moon", "sun", "wind"] }),
    msg({ type: "agent_start", agent: agent("worker-1", "synth-1") }),
    msg({ type: "agent_start", agent: agent("worker-2", "synth-1") }),
    msg({ type: "agent_start", agent: agent("worker-3", "synth-1") }),
    msg({ type: "agent_complete", agent: { ...agent("worker-1", "synth-1"), duration_ms: 900, tool_calls: 2 } }),
    msg({ type: "agent_failed", agent: agent("worker-3", "synth-1"), error: "timeout" }),
  ]);

  it("adds agents as they start, a waiting node for a parent not started yet, and their states as they finish", () => {
    expect(running.status).toBe("running");
    expect(running.subtasks).toEqual(["moon", "sun", "wind"]);
    expect(running.agents.map((a) => [a.id, a.state])).toEqual([
      ["worker-1", "done"],
      ["synth-1", "waiting"],
      ["worker-2", "running"],
      ["worker-3", "failed"],
    ]);
    expect(running.agents[0]).toMatchObject({ durationMs: 900, toolCalls: 2, title: "worker-1 title" });
    expect(running.agents[3]!.error).toBe("timeout");
    expect(describeRun(running)).toBe("Running. 1 of 4 agents done, 1 failed.");
  });

  it("takes replayed events (a reopened stream) without undoing a finish", () => {
    const replayed = fold([msg({ type: "agent_start", agent: agent("worker-1", "synth-1") })], running);
    expect(replayed.agents.find((a) => a.id === "worker-1")!.state).toBe("done");
  });

  it("fills the synthesizer and summary in when they start and finish, and completes with the result", () => {
    const done = fold(
      [
        msg({ type: "agent_start", agent: agent("synth-1", "summary", "synthesizer") }),
        msg({ type: "synthesis_complete", agent: { ...agent("synth-1", "summary", "synthesizer"), duration_ms: 10 } }),
        msg({ type: "agent_start", agent: agent("summary") }),
        msg({ type: "summary_complete", agent: { ...agent("summary"), duration_ms: 20 } }),
        JSON.stringify({
          task_id: "research_0123456789ab",
          status: "completed",
          type: "complete",
          result: CASCADE_RESULT,
        }),
      ],
      running,
    );
    expect(done.status).toBe("completed");
    expect(done.result?.kind).toBe("dream-cascade");
    expect(done.subtasks).toEqual(["moon", "sun", "wind"]);
    expect(Object.fromEntries(done.agents.map((a) => [a.id, a.state]))).toEqual({
      "worker-1": "done",
      "synth-1": "done",
      "worker-2": "failed", // still running on the stream, failed in the result
      "worker-3": "failed",
      summary: "done",
    });
    expect(describeRun(done)).toBe("Completed. 3 of 5 agents done, 2 failed.");
  });

  it("ignores what arrives after the run closed, a local cancel included", () => {
    const cancelled = reduceRun(running, { type: "cancelled" });
    expect(describeRun(cancelled)).toBe("Cancelled");
    expect(fold([msg({ type: "agent_start", agent: agent("worker-4", "synth-1") })], cancelled)).toBe(cancelled);
  });

  it("reports failures and timeouts, and a result it cannot read as a failure", () => {
    const failed = fold([JSON.stringify({ type: "error", status: "failed", error: "provider down" })]);
    expect(describeRun(failed)).toBe("Failed: provider down");
    expect(fold([JSON.stringify({ type: "timeout" })]).status).toBe("timeout");
    const unreadable = reduceRun(running, { type: "complete", result: { agents: "nope" } } as RunEvent);
    expect(unreadable.status).toBe("failed");
  });

  it("closes on a budget's stop, keeping the agents that finished, and says why", () => {
    const stopped = fold(
      [JSON.stringify({ type: "error", status: "budget_exceeded", error: "monthly budget exceeded: …" })],
      running,
    );
    expect(stopped.status).toBe("budget_exceeded");
    expect(stopped.error).toBe("monthly budget exceeded: …");
    expect(stopped.agents).toEqual(running.agents);
    expect(describeRun(stopped)).toBe("Stopped: the key's monthly budget ran out. 1 of 4 agents done, 1 failed.");
    expect(isClosing({ type: "budget_exceeded", error: null })).toBe(true);
  });

  it("builds the whole tree from a synchronous result", () => {
    const sync = reduceRun(reduceRun(IDLE, { type: "reset", kind: "dream-cascade" }), {
      type: "complete",
      result: CASCADE_RESULT,
    });
    expect(sync.subtasks).toEqual(["moon", "sun"]);
    expect(edgesOf(sync.agents).map((e) => e.id)).toEqual(["worker-1>synth-1", "synth-1>summary"]);
  });
});

describe("the tree", () => {
  it("links breakdown → workers → synthesizers → summary, and searchers → merge", () => {
    const cascade = fold([
      msg({ type: "agent_start", agent: agent("breakdown") }),
      msg({ type: "agent_start", agent: agent("worker-1", "synth-1", "worker") }),
      msg({ type: "agent_start", agent: agent("worker-2", "synth-1", "worker") }),
      msg({ type: "agent_start", agent: agent("synth-1", "summary", "synthesizer") }),
    ]);
    expect(edgesOf(cascade.agents).map((e) => e.id)).toEqual([
      "breakdown>worker-1",
      "breakdown>worker-2",
      "worker-1>synth-1",
      "synth-1>summary",
      "worker-2>synth-1",
    ]);
    const positions = layoutTree(cascade.agents, edgesOf(cascade.agents));
    const y = (id: string) => positions.get(id)!.y;
    expect(y("breakdown")).toBeLessThan(y("worker-1"));
    expect(y("worker-1")).toBe(y("worker-2"));
    expect(y("synth-1") - y("worker-1")).toBeGreaterThanOrEqual(NODE_HEIGHT);
    expect(y("summary")).toBeGreaterThan(y("synth-1"));

    const swarm = ResearchResult.parse({
      kind: "dream-swarm",
      query: "q",
      answer: "a",
      agents: [{ id: "searcher-1", role: "searcher", type: "news", status: "completed" }],
    });
    expect(agentsFromResult(swarm).map((a) => [a.id, a.title, a.parent])).toEqual([
      ["searcher-1", "news", "merge"],
      ["merge", "merge", undefined],
    ]);
  });
});
