import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { MemoryUpstreamCache } from "../upstream/cache.ts";
import { memoryTracing, parentOf, spansUnder } from "../../test/support/memory-tracing.ts";
import { toolByName } from "../tools/tools.ts";
import {
  startFakeArxiv,
  startFakeGithub,
  startFakeNasa,
  startFakeSemanticScholar,
  startFakeWikipedia,
  type FakeSource,
} from "../../test/fakes/data-sources.ts";
import { fakeAgentLlm, type FakeAgentScript } from "../../test/fakes/research-llm.ts";
import { renderFindings, runSwarm, SEARCHER_TOOLS, SEARCHER_TYPES, searcherType } from "./swarm.ts";
import type { AgentDeps, ResearchEvent, SwarmInput } from "./types.ts";

let fakes: Record<"arxiv" | "semantic_scholar" | "github" | "wikipedia" | "nasa", FakeSource>;

beforeAll(async () => {
  const [arxiv, semantic_scholar, github, wikipedia, nasa] = await Promise.all([
    startFakeArxiv(),
    startFakeSemanticScholar(),
    startFakeGithub(),
    startFakeWikipedia(),
    startFakeNasa(),
  ]);
  fakes = { arxiv, semantic_scholar, github, wikipedia, nasa };
});
afterAll(() => Promise.all(Object.values(fakes).map((f) => f.close())));
beforeEach(() => {
  for (const [name, fake] of Object.entries(fakes)) vi.stubEnv(`UPSTREAM_${name.toUpperCase()}_URL`, fake.url);
  vi.stubEnv("NEWS_API_KEY", "");
  vi.stubEnv("NASA_API_KEY", "");
});
afterEach(() => vi.unstubAllEnvs());

const input = (over: Partial<SwarmInput> = {}): SwarmInput => ({
  query: "analytical engine",
  num_agents: 5,
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
  return { llm, events, deps };
}

describe("searcher types", () => {
  it("cycles through the types, each mapped to registry search tools that exist", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(searcherType)).toEqual([
      "academic",
      "news",
      "technical",
      "general",
      "science",
      "social",
      "books",
      "academic",
    ]);
    for (const type of SEARCHER_TYPES)
      for (const name of SEARCHER_TOOLS[type]) {
        expect(toolByName(name), name).toBeDefined();
        expect(toolByName(name)!.input.safeParse({ query: "x", limit: 5 }).success, name).toBe(true);
      }
  });

  it("renders search hits one per line for the model, anything else as JSON", () => {
    expect(
      renderFindings("arxiv_search", {
        results: [{ title: "P", url: "https://p.example", summary: "a\n b" }, { title: "Q" }],
      }),
    ).toBe("## arxiv_search\n- P (https://p.example)\n  a b\n- Q");
    expect(renderFindings("x", { results: [] })).toBe("## x\nNo results.");
    expect(renderFindings("x", { a: 1 })).toBe('## x\n{"a":1}');
  });
});

describe("runSwarm", () => {
  it("runs typed searchers over their tools, summarises each, and merges one answer with the sources", async () => {
    const { llm, events, deps } = setup();
    const result = await runSwarm(input(), deps);

    expect(result).toMatchObject({
      kind: "dream-swarm",
      query: "analytical engine",
      provider: "xai",
      budget_tier: "balanced",
      answer: "merge (merger) answer",
    });
    expect(result.agents.map((a) => [a.id, a.type, a.status, a.tool_calls.map((t) => [t.tool, t.ok])])).toEqual([
      [
        "searcher-1",
        "academic",
        "completed",
        [
          ["arxiv_search", true],
          ["semantic_scholar_search", true],
        ],
      ],
      ["searcher-2", "news", "failed", [["news_search", false]]],
      ["searcher-3", "technical", "completed", [["github_search_repositories", true]]],
      ["searcher-4", "general", "completed", [["wikipedia_search", true]]],
      ["searcher-5", "science", "completed", [["nasa_search_images", true]]],
    ]);
    expect(result.agents[0]!.tool_calls[0]!.args).toEqual({ query: "analytical engine", limit: 5 });
    expect(result.failures).toEqual([
      { agent: "searcher-2", error: expect.stringMatching(/^no search tool answered: .*NEWS_API_KEY/) },
    ]);
    expect(result.agents[3]).toMatchObject({
      tier: "cheap",
      model: "model-cheap",
      output: "searcher-4 (searcher) answer",
    });
    expect(result.sources).toEqual(
      expect.arrayContaining([
        { title: "Ada Lovelace", url: "https://en.wikipedia.org/wiki/Ada_Lovelace", source: "wikipedia" },
        expect.objectContaining({ title: "honojs/hono", url: "https://github.com/honojs/hono" }),
        expect.objectContaining({ title: "Construction of the Literature Graph in Semantic Scholar" }),
      ]),
    );
    expect(new Set(result.sources.map((s) => s.url ?? s.title)).size).toBe(result.sources.length);

    const searcherCalls = llm.calls.filter((c) => c.role === "searcher");
    expect(searcherCalls.map((c) => c.agentId)).toEqual(["searcher-1", "searcher-3", "searcher-4", "searcher-5"]);
    expect(searcherCalls.every((c) => c.tier === "cheap" && !c.tools)).toBe(true);
    expect(searcherCalls.find((c) => c.agentId === "searcher-4")!.prompt).toContain(
      "- Ada Lovelace (https://en.wikipedia.org/wiki/Ada_Lovelace)",
    );
    const merge = llm.calls.find((c) => c.role === "merger")!;
    expect(merge).toMatchObject({ agentId: "merge", tier: "premium" });
    expect(merge.prompt).toContain("### searcher-5 (science)");
    expect(merge.prompt).not.toContain("searcher-2");
    expect(result.usage.by_tier).toMatchObject({ cheap: { calls: 4 }, premium: { calls: 1 } });

    expect(events.filter((e) => e.type === "agent_start").map((e) => ("agent" in e ? e.agent.parent : ""))).toEqual([
      "merge",
      "merge",
      "merge",
      "merge",
      "merge",
      undefined,
    ]);
    expect(events.at(-1)).toMatchObject({ type: "summary_complete", agent: { id: "merge", role: "merger" } });
    expect(events.find((e) => e.type === "agent_complete" && e.agent.id === "searcher-1")).toMatchObject({
      agent: { tool_calls: 2 },
    });
    expect(events.find((e) => e.type === "agent_failed")).toMatchObject({ agent: { id: "searcher-2" } });
  });

  it("keeps a searcher whose tools partly fail, and fails the run only when every searcher fails", async () => {
    fakes.arxiv.setStatus(500);
    try {
      const { deps } = setup();
      const result = await runSwarm(input({ num_agents: 1 }), deps);
      expect(result.agents[0]).toMatchObject({ status: "completed", type: "academic" });
      expect(result.agents[0]!.tool_calls.map((t) => t.ok)).toEqual([false, true]);
    } finally {
      fakes.arxiv.setStatus(undefined);
    }
    const failing = setup((call) => {
      if (call.role === "searcher") throw new Error("model down");
      return undefined;
    });
    await expect(runSwarm(input({ num_agents: 2 }), failing.deps)).rejects.toThrow(
      "all 2 search agents failed: model down",
    );
    expect(failing.llm.calls.some((c) => c.role === "merger")).toBe(false);
  });

  it("traced, a searcher is one span over its tool calls (each over its upstream requests) and its model call", async () => {
    const t = memoryTracing();
    const { llm, deps } = setup();
    const run = t.root("research.task");
    await runSwarm(input({ num_agents: 2, query: "analytical engine" }), { ...deps, trace: run });
    run.end();
    const spans = await t.spans();
    const named = (name: string) => spans.find((s) => s.name === name)!;
    expect(spansUnder(spans, named("research.task")).map((s) => s.name)).toEqual(["research.search", "research.merge"]);
    expect(
      spansUnder(spans, named("research.search"))
        .map((s) => s.name)
        .sort(),
    ).toEqual(["invoke_agent searcher-1", "invoke_agent searcher-2"]);
    const academic = named("invoke_agent searcher-1");
    const tools = spansUnder(spans, academic);
    expect(tools.map((s) => s.name).sort()).toEqual([
      "execute_tool arxiv_search",
      "execute_tool semantic_scholar_search",
    ]);
    const arxivRequests = spansUnder(spans, named("execute_tool arxiv_search"));
    expect(arxivRequests.map((s) => [s.name, s.kind, s.attributes["http.response.status_code"]])).toEqual([
      ["GET arxiv", SpanKind.CLIENT, 200],
    ]);
    // The news searcher's one tool failed (no key): its span and its tool's say so.
    expect(named("invoke_agent searcher-2").status.code).toBe(SpanStatusCode.ERROR);
    expect(named("execute_tool news_search").status.code).toBe(SpanStatusCode.ERROR);
    // The searcher's model call runs under the searcher's span, the merge under its phase's agent span.
    const call = (id: string) => llm.calls.find((c) => c.agentId === id)!;
    expect(call("searcher-1").trace?.span.spanContext().spanId).toBe(academic.spanContext().spanId);
    expect(call("merge").trace?.span.spanContext().spanId).toBe(named("invoke_agent merge").spanContext().spanId);
    expect(parentOf(named("invoke_agent merge"))).toBe(named("research.merge").spanContext().spanId);
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toMatch(/analytical/);
  });

  it("stops on cancel with the signal's reason", async () => {
    const controller = new AbortController();
    const { llm, deps } = setup(async (call) => {
      await new Promise((r) => call.signal.addEventListener("abort", r, { once: true }));
      return undefined;
    }, controller);
    const run = runSwarm(input(), deps);
    await vi.waitFor(() => expect(llm.calls.length).toBeGreaterThan(0));
    controller.abort(new Error("Cancelled"));
    await expect(run).rejects.toThrow("Cancelled");
    expect(llm.calls.some((c) => c.role === "merger")).toBe(false);
  });
});
