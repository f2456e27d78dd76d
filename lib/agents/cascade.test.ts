import { SpanStatusCode } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors.ts";
import { memoryTracing, spansUnder } from "../../test/support/memory-tracing.ts";
import { MemoryUpstreamCache } from "../upstream/cache.ts";
import { TOOLS } from "../tools/tools.ts";
import { fakeAgentLlm, type FakeAgentScript } from "../../test/fakes/research-llm.ts";
import { parseSubtasks, runCascade, titleOf } from "./cascade.ts";
import type { AgentDeps, CascadeInput, ResearchEvent } from "./types.ts";

const input = (over: Partial<CascadeInput> = {}): CascadeInput => ({
  task: "How did Ada Lovelace shape computing?",
  num_agents: 8,
  provider_name: "xai",
  budget_tier: "balanced",
  ...over,
});

function setup(script?: FakeAgentScript, controller = new AbortController()) {
  const llm = fakeAgentLlm(script);
  const events: ResearchEvent[] = [];
  const deps: AgentDeps = {
    llm,
    emit: (e) => events.push(e),
    signal: controller.signal,
    toolContext: { cache: new MemoryUpstreamCache(), signal: controller.signal },
  };
  return { llm, events, deps, controller };
}

const ids = (events: ResearchEvent[], type: ResearchEvent["type"]) =>
  events.filter((e) => e.type === type).map((e) => ("agent" in e ? e.agent.id : e.type));

describe("parseSubtasks", () => {
  const task = "Quantum computing";
  it("reads numbered and bulleted lists, dropping preamble, emphasis and labels", () => {
    const text = [
      "Here are the subtasks:",
      "1. History of qubits",
      "2) **Error correction** today",
      "(3) Subtask 3: Hardware vendors",
      "- Algorithms",
      "* Algorithms",
      "• Post-quantum cryptography",
      "### 7. Funding",
      "Hope this helps!",
    ].join("\n");
    expect(parseSubtasks(text, 6, task)).toEqual([
      "History of qubits",
      "Error correction today",
      "Hardware vendors",
      "Algorithms",
      "Post-quantum cryptography",
      "Funding",
    ]);
  });

  it("trims to n and pads with generic angles of the task", () => {
    expect(parseSubtasks("1. a-one\n2. b-two\n3. c-three", 2, task)).toEqual(["a-one", "b-two"]);
    expect(parseSubtasks("1. Only one", 3, task)).toEqual([
      "Only one",
      "Background, definitions and history of: Quantum computing",
      "Current state and recent developments of: Quantum computing",
    ]);
    const padded = parseSubtasks("", 10, task);
    expect(padded).toHaveLength(10);
    expect(new Set(padded).size).toBe(10);
    expect(padded[8]).toBe("Background, definitions and history of: Quantum computing (part 2)");
  });

  it("falls back to plain lines when the model wrote no list", () => {
    expect(parseSubtasks("Subtasks:\nHistory of qubits\nHardware\n\nok", 2, task)).toEqual([
      "History of qubits",
      "Hardware",
    ]);
  });
});

describe("titleOf", () => {
  it("is the task's first line, cut at a word near 80 characters", () => {
    expect(titleOf("Short task\nmore")).toBe("Short task");
    const long = "word ".repeat(30).trim();
    expect(titleOf(long).length).toBeLessThanOrEqual(81);
    expect(titleOf(long).endsWith("word…")).toBe(true);
  });
});

describe("runCascade", () => {
  it("breaks down, researches in parallel with all tools, synthesises by groups of five and summarises", async () => {
    const { llm, events, deps } = setup((call) =>
      call.role === "worker"
        ? {
            toolCalls: [{ tool: "wikipedia_search", args: { query: "x" }, ok: true }],
            sources: [
              { title: "Ada Lovelace", url: "https://en.wikipedia.org/wiki/Ada_Lovelace", source: "wikipedia" },
            ],
          }
        : undefined,
    );
    const result = await runCascade(input({ title: "Ada" }), deps);

    expect(result).toMatchObject({
      kind: "dream-cascade",
      title: "Ada",
      provider: "xai",
      budget_tier: "balanced",
      models: { worker: "grok-3-mini", synthesizer: "grok-4-fast", summary: "grok-4" },
      executive_summary: "summary (summary) answer",
      failures: [],
      sources: [{ title: "Ada Lovelace", url: "https://en.wikipedia.org/wiki/Ada_Lovelace", source: "wikipedia" }],
    });
    expect(result.subtasks).toEqual(Array.from({ length: 8 }, (_, i) => `Subtask ${i + 1} about the task`));
    expect(result.agents.map((a) => [a.id, a.status, a.tier, a.model, a.tool_calls.length])).toEqual(
      Array.from({ length: 8 }, (_, i) => [`worker-${i + 1}`, "completed", "cheap", "model-cheap", 1]),
    );
    expect(result.agents[0]).toMatchObject({ subtask: "Subtask 1 about the task", output: "worker-1 (worker) answer" });
    expect(result.syntheses.map((s) => [s.id, s.agents, s.tier])).toEqual([
      ["synth-1", ["worker-1", "worker-2", "worker-3", "worker-4", "worker-5"], "balanced"],
      ["synth-2", ["worker-6", "worker-7", "worker-8"], "balanced"],
    ]);

    // Calls: the plan on the synthesiser's tier, workers with every tool and three steps.
    const byRole = (role: string) => llm.calls.filter((c) => c.role === role);
    expect(byRole("breakdown")).toHaveLength(1);
    expect(byRole("breakdown")[0]!.tier).toBe("balanced");
    expect(byRole("breakdown")[0]!.system).toContain("exactly 8");
    for (const w of byRole("worker")) {
      expect(w).toMatchObject({ tier: "cheap", maxSteps: 3, toolContext: deps.toolContext });
      expect(w.tools).toBe(TOOLS);
      expect(w.prompt).toContain(input().task);
    }
    expect(byRole("synthesizer")[1]!.prompt).toContain("worker-8 (worker) answer");
    expect(byRole("summary")[0]).toMatchObject({ tier: "premium" });
    expect(byRole("summary")[0]!.prompt).toContain("synth-2 (synthesizer) answer");

    expect(result.usage).toEqual({
      by_tier: {
        cheap: { calls: 8, prompt_tokens: 80, completion_tokens: 40 },
        balanced: { calls: 3, prompt_tokens: 30, completion_tokens: 15 },
        premium: { calls: 1, prompt_tokens: 10, completion_tokens: 5 },
      },
      prompt_tokens: 120,
      completion_tokens: 60,
      total_tokens: 180,
      estimated_cost_usd: 0, // the fake's models have no price
    });
    expect(result.timings.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(result.timings.completed_at)).toBeGreaterThanOrEqual(Date.parse(result.timings.started_at));

    // Events: subtasks first, each agent starts before it ends, workers → synths → summary last.
    expect(events[0]).toEqual({ type: "subtasks_ready", subtasks: result.subtasks });
    expect(events.at(-1)).toMatchObject({ type: "summary_complete", agent: { id: "summary", role: "summary" } });
    for (const e of events)
      if (e.type !== "subtasks_ready" && e.type !== "agent_start") {
        const start = events.findIndex((s) => s.type === "agent_start" && s.agent.id === e.agent.id);
        expect(start, e.agent.id).toBeGreaterThan(-1);
        expect(start).toBeLessThan(events.indexOf(e));
      }
    expect(ids(events, "agent_complete")).toHaveLength(8);
    expect(ids(events, "synthesis_complete")).toEqual(["synth-1", "synth-2"]);
    const starts = events.flatMap((e) => (e.type === "agent_start" ? [e.agent] : []));
    expect(starts.find((a) => a.id === "worker-6")).toMatchObject({
      parent: "synth-2",
      title: "Subtask 6 about the task",
    });
    expect(starts.find((a) => a.id === "synth-1")).toMatchObject({ parent: "summary", role: "synthesizer" });
    expect(starts.find((a) => a.id === "summary")!.parent).toBeUndefined();
    const complete = events.find((e) => e.type === "agent_complete")!;
    expect(complete).toMatchObject({ agent: { tool_calls: 1, duration_ms: expect.any(Number) } });
  });

  it("runs at most four workers at once", async () => {
    let running = 0;
    let most = 0;
    const { deps } = setup(async (call) => {
      if (call.role !== "worker") return undefined;
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return undefined;
    });
    await runCascade(input({ num_agents: 10 }), deps);
    expect(most).toBe(4);
  });

  it("degrades gracefully: failed workers are reported, synthesis uses the rest, an all-failed group is skipped", async () => {
    const { llm, events, deps } = setup((call) => {
      if (["worker-2", "worker-6"].includes(call.agentId)) throw new Error(`${call.agentId} broke`);
      return undefined;
    });
    const result = await runCascade(input({ num_agents: 6, title: undefined }), deps);
    expect(result.title).toBe(input().task);
    expect(result.failures).toEqual([
      { agent: "worker-2", error: "worker-2 broke" },
      { agent: "worker-6", error: "worker-6 broke" },
    ]);
    expect(result.agents[1]).toMatchObject({ status: "failed", error: "worker-2 broke", tool_calls: [], sources: [] });
    expect(result.syntheses.map((s) => [s.id, s.agents])).toEqual([
      ["synth-1", ["worker-1", "worker-3", "worker-4", "worker-5"]],
    ]);
    expect(llm.calls.filter((c) => c.role === "synthesizer")).toHaveLength(1);
    expect(events).toContainEqual({
      type: "agent_failed",
      agent: expect.objectContaining({ id: "worker-6", parent: "synth-2" }),
      error: "worker-6 broke",
    });
    expect(ids(events, "agent_start")).not.toContain("synth-2");
    expect(result.usage.by_tier.cheap.calls).toBe(4);
  });

  it("fails clearly when every worker fails, or the breakdown does", async () => {
    const workers = setup((call) => {
      if (call.role === "worker") throw new Error(`upstream said no to ${call.agentId}`);
      return undefined;
    });
    await expect(runCascade(input({ num_agents: 3 }), workers.deps)).rejects.toThrow(
      "all 3 worker agents failed: upstream said no to worker-1",
    );
    expect(workers.llm.calls.filter((c) => c.role === "synthesizer")).toHaveLength(0);

    const plan = setup((call) => {
      if (call.role === "breakdown") throw new Error("provider down");
      return undefined;
    });
    await expect(runCascade(input(), plan.deps)).rejects.toMatchObject({
      status: 502,
      message: "the breakdown agent failed: provider down",
    });
    expect(plan.events).toEqual([]);
  });

  it("cancels mid-run: in-flight calls see the abort, no new agent starts, it rejects at once with the reason", async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const { llm, events, deps } = setup(async (call) => {
      if (call.role !== "worker") return undefined;
      // A worker that never answers by itself: it ends only when its signal aborts (and ignores that, too late).
      await new Promise<void>((resolve) =>
        call.signal.addEventListener("abort", () => (seen.push(call.agentId), resolve()), { once: true }),
      );
      return undefined;
    }, controller);
    const run = runCascade(input(), deps);
    await new Promise((r) => setTimeout(r, 20));
    expect(llm.calls.filter((c) => c.role === "worker")).toHaveLength(4);
    const reason = new Error("Cancelled");
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    expect(seen.sort()).toEqual(["worker-1", "worker-2", "worker-3", "worker-4"]);
    await new Promise((r) => setTimeout(r, 20));
    expect(llm.calls.filter((c) => c.role === "worker")).toHaveLength(4);
    expect(llm.calls.some((c) => c.role === "synthesizer" || c.role === "summary")).toBe(false);
    expect(events.filter((e) => e.type === "agent_failed")).toEqual([]);
  });

  it("traced, the run is one tree: a span per phase, an agent span per agent under its phase, each call under its agent", async () => {
    const t = memoryTracing();
    const { llm, deps } = setup((call) => {
      if (call.agentId === "worker-2") throw new GatewayError(502, "worker-2 broke");
      return undefined;
    });
    const run = t.root("research.task");
    await runCascade(input({ num_agents: 3 }), { ...deps, trace: run });
    run.end();
    const spans = await t.spans();
    const task = spans.find((s) => s.name === "research.task")!;
    const phases = spansUnder(spans, task);
    expect(phases.map((s) => s.name)).toEqual([
      "research.breakdown",
      "research.workers",
      "research.synthesis",
      "research.summary",
    ]);
    const agentsOf = (phase: number) => spansUnder(spans, phases[phase]!).map((s) => s.name);
    expect(agentsOf(0)).toEqual(["invoke_agent breakdown"]);
    expect(agentsOf(1).sort()).toEqual(["invoke_agent worker-1", "invoke_agent worker-2", "invoke_agent worker-3"]);
    expect(agentsOf(2)).toEqual(["invoke_agent synth-1"]);
    expect(agentsOf(3)).toEqual(["invoke_agent summary"]);
    const agent = (id: string) => spans.find((s) => s.name === `invoke_agent ${id}`)!;
    expect(agent("worker-2").status.code).toBe(SpanStatusCode.ERROR);
    expect(agent("worker-2").attributes["error.type"]).toBe("502");
    expect(agent("worker-1").attributes).toEqual({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "worker-1",
      "gateway.agent.role": "worker",
      "gateway.agent.tier": "cheap",
      "gen_ai.request.model": "grok-3-mini",
    });
    // Each model call is handed its agent's span: its attempts and tool calls go under it.
    for (const call of llm.calls)
      expect(call.trace?.span.spanContext().spanId).toBe(agent(call.agentId).spanContext().spanId);
    // Subtasks are the task's own words: no span carries them.
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toMatch(/Subtask|Lovelace/);
  });

  it("does not start at all once cancelled", async () => {
    const controller = new AbortController();
    controller.abort(new Error("Cancelled"));
    const { llm, deps } = setup(undefined, controller);
    await expect(runCascade(input(), deps)).rejects.toThrow("Cancelled");
    expect(llm.calls).toEqual([]);
  });
});
