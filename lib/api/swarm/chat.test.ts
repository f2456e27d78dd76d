import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MemoryUpstreamCache } from "../../upstream/cache.ts";
import { agentLlm } from "../../agents/agent-llm.ts";
import { TOOLS } from "../../tools/tools.ts";
import { startFakeWikipedia, type FakeSource } from "../../../test/fakes/data-sources.ts";
import { fakeAgentLlm, startFakeResearchLlm, type FakeResearchLlm } from "../../../test/fakes/research-llm.ts";
import { providersRouter } from "../../../test/support/providers-router.ts";
import { CHAT_MAX_STEPS, runSwarmChat, selectTools, type SwarmDeps } from "./chat.ts";

const deps = (llm: SwarmDeps["llm"], signal = new AbortController().signal): SwarmDeps => ({
  llm,
  signal,
  toolContext: { cache: new MemoryUpstreamCache(), signal },
});

describe("selectTools", () => {
  it("is every tool for none or an empty list, else the ones named (each once)", () => {
    expect(selectTools()).toBe(TOOLS);
    expect(selectTools([])).toBe(TOOLS);
    expect(selectTools(["wikipedia_search", "arxiv_search", "wikipedia_search"]).map((t) => t.name)).toEqual([
      "wikipedia_search",
      "arxiv_search",
    ]);
  });

  it("refuses unknown names with 400 naming them, a few at most, cut short", () => {
    expect(() => selectTools(["wikipedia_search", "nope"])).toThrow(
      expect.objectContaining({ status: 400, message: "unknown tool 'nope': GET /v1/tools/ lists them" }),
    );
    const many = ["a", "b", "c", "d", "e", "f", "g", "x".repeat(500)];
    let message = "";
    try {
      selectTools(many);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe("unknown tools 'a', 'b', 'c', 'd', 'e' and 3 more: GET /v1/tools/ lists them");
  });
});

describe("runSwarmChat", () => {
  it("asks one balanced-tier agent with the chosen tools over five steps, and lists its tool calls", async () => {
    const llm = fakeAgentLlm(() => ({
      content: "Ada wrote the first program.",
      toolCalls: [{ tool: "wikipedia_search", args: { query: "Ada" }, ok: true }],
      sources: [
        { title: "Ada Lovelace", url: "https://en.wikipedia.org/wiki/Ada_Lovelace", source: "wikipedia" },
        { title: "Ada Lovelace", url: "https://en.wikipedia.org/wiki/Ada_Lovelace/", source: "wikipedia" },
      ],
    }));
    const d = deps(llm);
    const result = await runSwarmChat({ prompt: "Who was Ada?", tools: ["wikipedia_search"] }, d);
    expect(result).toEqual({
      answer: "Ada wrote the first program.",
      tool_calls: [{ tool: "wikipedia_search", args: { query: "Ada" }, ok: true }],
      sources: [{ title: "Ada Lovelace", url: "https://en.wikipedia.org/wiki/Ada_Lovelace", source: "wikipedia" }],
      provider: "xai",
      model: "model-balanced",
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
    const [call] = llm.calls;
    expect(call).toMatchObject({
      agentId: "chat",
      role: "chat",
      tier: "balanced",
      maxSteps: CHAT_MAX_STEPS,
      prompt: "Who was Ada?",
    });
    expect(call!.tools!.map((t) => t.name)).toEqual(["wikipedia_search"]);
    expect(call!.toolContext).toBe(d.toolContext);
  });

  it("refuses an unknown tool before calling any model", async () => {
    const llm = fakeAgentLlm();
    await expect(runSwarmChat({ prompt: "x", tools: ["nope"] }, deps(llm))).rejects.toMatchObject({ status: 400 });
    expect(llm.calls).toEqual([]);
  });

  describe("against the fake provider", () => {
    let provider: FakeResearchLlm;
    let wikipedia: FakeSource;
    beforeAll(async () => {
      [provider, wikipedia] = await Promise.all([startFakeResearchLlm({ key: "k" }), startFakeWikipedia()]);
      vi.stubEnv("XAI_API_KEY", "k");
      vi.stubEnv("UPSTREAM_XAI_URL", provider.url);
      vi.stubEnv("UPSTREAM_WIKIPEDIA_URL", wikipedia.url);
    });
    afterAll(async () => {
      vi.unstubAllEnvs();
      await Promise.all([provider.close(), wikipedia.close()]);
    });

    it("offers the model only the chosen tools and runs the one it calls", async () => {
      const result = await runSwarmChat(
        { prompt: "Who was Ada?", tools: ["wikipedia_search", "arxiv_search"] },
        deps(agentLlm({ provider: "xai", router: providersRouter() })),
      );
      expect(provider.requests[0]!.body.tools!.map((t) => t.function.name)).toEqual([
        "wikipedia_search",
        "arxiv_search",
      ]);
      expect(provider.requests[0]).toMatchObject({ role: "chat", model: "grok-4-fast" });
      expect(result).toMatchObject({
        answer: "Findings of the chat, citing Ada Lovelace.",
        tool_calls: [{ tool: "wikipedia_search", ok: true }],
        provider: "xai",
        model: "grok-4-fast",
      });
      expect(result.sources.map((s) => s.title)).toEqual(["Ada Lovelace", "Analytical Engine"]);
    });
  });
});
