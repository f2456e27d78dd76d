import { describe, expect, it } from "vitest";
import { MemoryUpstreamCache } from "../../upstream/cache.ts";
import type { ResearchEvent } from "../../agents/types.ts";
import { TOOLS } from "../../tools/tools.ts";
import { fakeAgentLlm, type FakeAgentScript } from "../../../test/fakes/research-llm.ts";
import { HIVE_STEPS, runHive, type HiveDeps } from "./hive.ts";

function setup(script?: FakeAgentScript) {
  const llm = fakeAgentLlm(script);
  const events: ResearchEvent[] = [];
  const signal = new AbortController().signal;
  const deps: HiveDeps = {
    llm,
    signal,
    emit: (e) => events.push(e),
    toolContext: { cache: new MemoryUpstreamCache(), signal },
  };
  return { llm, deps, events };
}

describe("runHive", () => {
  it("plans 2, 3 or 5 steps by depth, runs each with the tools, and synthesises an answer", async () => {
    expect(HIVE_STEPS).toEqual({ quick: 2, balanced: 3, deep: 5 });
    const { llm, deps, events } = setup((call) =>
      call.role === "worker"
        ? {
            sources: [
              { title: "Ada Lovelace", url: "https://en.wikipedia.org/wiki/Ada_Lovelace", source: "wikipedia" },
            ],
          }
        : undefined,
    );
    const result = await runHive({ task: "Ada Lovelace's legacy", depth: "balanced" }, deps);
    expect(result).toEqual({
      task: "Ada Lovelace's legacy",
      depth: "balanced",
      plan: ["Subtask 1 about the task", "Subtask 2 about the task", "Subtask 3 about the task"],
      steps: [1, 2, 3].map((k) => ({
        id: `step-${k}`,
        subtask: `Subtask ${k} about the task`,
        output: `step-${k} (worker) answer`,
        tool_calls: [],
        sources: [{ title: "Ada Lovelace", url: "https://en.wikipedia.org/wiki/Ada_Lovelace", source: "wikipedia" }],
        status: "completed",
      })),
      answer: "synthesis (synthesizer) answer",
      sources: [{ title: "Ada Lovelace", url: "https://en.wikipedia.org/wiki/Ada_Lovelace", source: "wikipedia" }],
      usage: expect.objectContaining({ total_tokens: 5 * 15 }),
    });
    expect(llm.calls.map((c) => [c.agentId, c.role, c.tier])).toEqual([
      ["planner", "planner", "balanced"],
      ["step-1", "worker", "cheap"],
      ["step-2", "worker", "cheap"],
      ["step-3", "worker", "cheap"],
      ["synthesis", "synthesizer", "premium"],
    ]);
    expect(llm.calls[1]!.tools).toBe(TOOLS);
    expect(llm.calls[0]!.system).toContain("exactly 3");
    expect(llm.calls[4]!.prompt).toContain("step-3 (worker) answer");
    expect(events.find((e) => e.type === "agent_start" && e.agent.id === "step-1")).toMatchObject({
      agent: { parent: "synthesis", model: "grok-3-mini" },
    });

    const quick = setup();
    expect((await runHive({ task: "t", depth: "quick" }, quick.deps)).plan).toHaveLength(2);
    expect(quick.llm.calls.map((c) => c.tier)).toEqual(["cheap", "cheap", "cheap", "balanced"]);
    const deep = setup();
    expect((await runHive({ task: "t", depth: "deep" }, deep.deps)).steps).toHaveLength(5);
  });

  it("reports failed steps and answers from the rest; fails when all steps or the planner fail", async () => {
    const some = setup((call) => {
      if (call.agentId === "step-2") throw new Error("tool chain broke");
      return undefined;
    });
    const result = await runHive({ task: "t", depth: "balanced" }, some.deps);
    expect(result.steps[1]).toEqual({
      id: "step-2",
      subtask: "Subtask 2 about the task",
      error: "tool chain broke",
      tool_calls: [],
      sources: [],
      status: "failed",
    });
    expect(some.llm.calls.at(-1)!.prompt).not.toContain("step-2");

    const all = setup((call) => {
      if (call.role === "worker") throw new Error("down");
      return undefined;
    });
    await expect(runHive({ task: "t", depth: "quick" }, all.deps)).rejects.toThrow("all 2 hive steps failed: down");
    const planner = setup((call) => {
      if (call.role === "planner") throw new Error("no plan");
      return undefined;
    });
    await expect(runHive({ task: "t", depth: "quick" }, planner.deps)).rejects.toMatchObject({
      status: 502,
      message: "the planner agent failed: no plan",
    });
  });
});
