import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GatewayError } from "../errors.ts";
import { MemoryUpstreamCache } from "../upstream/cache.ts";
import { TOOLS, toolByName } from "../tools/tools.ts";
import { startFakeWikipedia, type FakeSource } from "../../test/fakes/data-sources.ts";
import {
  startFakeResearchLlm,
  type FakeResearchLlm,
  type FakeTurn,
  type FakeRequest,
} from "../../test/fakes/research-llm.ts";
import { providersRouter } from "../../test/support/providers-router.ts";
import { agentLlm, toolOutcomes } from "./agent-llm.ts";
import type { AgentCall, AgentReply } from "./types.ts";

let script: ((req: FakeRequest) => FakeTurn | undefined) | undefined;
let llm: FakeResearchLlm;
let wikipedia: FakeSource;

beforeAll(async () => {
  [llm, wikipedia] = await Promise.all([
    startFakeResearchLlm({ key: "xai-test", script: (req) => script?.(req) }),
    startFakeWikipedia(),
  ]);
});
afterAll(async () => {
  await Promise.all([llm.close(), wikipedia.close()]);
});
afterEach(() => {
  script = undefined;
  vi.unstubAllEnvs();
});

function configure() {
  vi.stubEnv("XAI_API_KEY", "xai-test");
  vi.stubEnv("UPSTREAM_XAI_URL", llm.url);
  vi.stubEnv("UPSTREAM_WIKIPEDIA_URL", wikipedia.url);
}

const call = (over: Partial<AgentCall> = {}): AgentCall => ({
  agentId: "worker-1",
  role: "worker",
  tier: "cheap",
  system: "Role: worker. Research.",
  prompt: "Who was Ada Lovelace?",
  signal: new AbortController().signal,
  ...over,
});
const toolContext = () => ({ cache: new MemoryUpstreamCache(), signal: new AbortController().signal });

describe("agentLlm against a fake provider", () => {
  it("asks the provider's model for the call's tier and reports content, model and usage", async () => {
    configure();
    const replies: Array<[AgentReply, AgentCall]> = [];
    const agent = agentLlm({
      provider: "xai",
      router: providersRouter(),
      onCall: (reply, c) => void replies.push([reply, c]),
    });
    const c = call({ role: "summary", tier: "premium", system: "Role: summary. Sum up." });
    const reply = await agent(c);
    expect(reply).toEqual({
      content: "The summary's answer.",
      provider: "xai",
      model: "grok-4",
      usage: { prompt_tokens: expect.any(Number), completion_tokens: 3, total_tokens: expect.any(Number) },
      toolCalls: [],
      sources: [],
    });
    const sent = llm.requests.at(-1)!;
    expect(sent).toMatchObject({ path: "/v1/chat/completions", role: "summary", model: "grok-4" });
    expect(sent.body.messages).toEqual([
      { role: "system", content: "Role: summary. Sum up." },
      { role: "user", content: "Who was Ada Lovelace?" },
    ]);
    expect(sent.body.tools).toBeUndefined();
    expect(replies).toEqual([[reply, c]]);
  });

  it("runs a registry tool the model calls against its (fake) source, answers the follow-up, and cites the results", async () => {
    configure();
    const before = llm.requests.length;
    const hits = wikipedia.hits.length;
    const onCall = vi.fn();
    const reply = await agentLlm({ provider: "xai", router: providersRouter(), onCall })(
      call({ tools: TOOLS, maxSteps: 3, toolContext: toolContext() }),
    );

    expect(wikipedia.hits.slice(hits)).toEqual([expect.stringMatching(/^\/w\/api\.php\?.*srsearch=Ada\+Lovelace/)]);
    expect(reply.toolCalls).toEqual([
      { tool: "wikipedia_search", args: { query: "Ada Lovelace", limit: 2 }, ok: true },
    ]);
    expect(reply.sources).toEqual([
      { title: "Ada Lovelace", url: "https://en.wikipedia.org/wiki/Ada_Lovelace", source: "wikipedia" },
      { title: "Analytical Engine", url: "https://en.wikipedia.org/wiki/Analytical_Engine", source: "wikipedia" },
    ]);
    expect(reply.content).toBe("Findings of the worker, citing Ada Lovelace.");

    const [first, second] = llm.requests.slice(before);
    expect(llm.requests.length - before).toBe(2);
    expect(first!.body.tools).toHaveLength(TOOLS.length);
    expect(first!.body.tools!.find((t) => t.function.name === "wikipedia_search")).toMatchObject({
      type: "function",
      function: { description: toolByName("wikipedia_search")!.description, parameters: { type: "object" } },
    });
    const toolMessage = second!.body.messages.find((m) => m.role === "tool")!;
    expect(toolMessage.content).toContain('"title":"Analytical Engine"');
    // Usage is the total of both steps.
    const counted = (await Promise.resolve(onCall.mock.calls[0]![0])) as AgentReply;
    expect(counted.usage.completion_tokens).toBe(10 + 7);
    expect(onCall).toHaveBeenCalledTimes(1);
  });

  it("records a failing tool without failing the agent, and tells the model it failed", async () => {
    configure();
    wikipedia.setStatus(500);
    try {
      const before = llm.requests.length;
      const reply = await agentLlm({ provider: "xai", router: providersRouter() })(
        call({ tools: TOOLS, toolContext: toolContext() }),
      );
      expect(reply.toolCalls).toEqual([
        {
          tool: "wikipedia_search",
          args: { query: "Ada Lovelace", limit: 2 },
          ok: false,
          error: expect.stringContaining("wikipedia"),
        },
      ]);
      expect(reply.sources).toEqual([]);
      expect(reply.content).toBe("Findings of the worker.");
      const told = llm.requests.slice(before)[1]!.body.messages.find((m) => m.role === "tool")!;
      expect(told.content).toContain("wikipedia");
    } finally {
      wikipedia.setStatus(undefined);
    }
  });

  it("makes the last allowed step answer without tools", async () => {
    configure();
    script = (req) =>
      req.role === "worker" && req.body.tool_choice !== "none"
        ? { toolCalls: [{ name: "wikipedia_search", arguments: { query: "Ada" } }] }
        : undefined;
    const before = llm.requests.length;
    const reply = await agentLlm({ provider: "xai", router: providersRouter() })(
      call({ tools: TOOLS, maxSteps: 2, toolContext: toolContext() }),
    );
    const sent = llm.requests.slice(before);
    expect(sent.map((r) => r.body.tool_choice)).toEqual(["auto", "none"]);
    expect(reply.toolCalls).toHaveLength(1);
    expect(reply.content).toContain("Findings of the worker");
  });

  it("turns a provider's failure into the gateway's error, and an empty answer into a 502 after metering it", async () => {
    configure();
    script = () => ({ status: 500 });
    await expect(agentLlm({ provider: "xai", router: providersRouter() })(call())).rejects.toMatchObject({
      status: 502,
      message: "xai failed (500)",
    });
    script = () => ({ status: 429 });
    await expect(agentLlm({ provider: "xai", router: providersRouter() })(call())).rejects.toBeInstanceOf(GatewayError);
    script = () => ({ content: "  " });
    const onCall = vi.fn();
    await expect(agentLlm({ provider: "xai", router: providersRouter(), onCall })(call())).rejects.toMatchObject({
      status: 502,
      message: "xai answered agent worker-1 with no text",
    });
    expect(onCall).toHaveBeenCalledTimes(1);
  });

  it("refuses an unconfigured provider (503 naming its variable) and an unknown one (400)", () => {
    vi.stubEnv("XAI_API_KEY", "");
    expect(() => agentLlm({ provider: "xai", router: providersRouter() })).toThrow(
      expect.objectContaining({ status: 503, message: "xai is not configured: set XAI_API_KEY" }),
    );
    expect(() => agentLlm({ provider: "acme", router: providersRouter() })).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });

  it("aborts the upstream request when the call's signal aborts", async () => {
    configure();
    script = () => ({ content: "late", delayMs: 10_000 });
    const controller = new AbortController();
    const before = llm.aborted();
    const started = Date.now();
    const pending = agentLlm({ provider: "xai", router: providersRouter() })(call({ signal: controller.signal }));
    await vi.waitFor(() => expect(llm.requests.at(-1)!.body.messages[1]).toBeDefined());
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(GatewayError);
    expect(Date.now() - started).toBeLessThan(5_000);
    await vi.waitFor(() => expect(llm.aborted()).toBe(before + 1));
  });

  it("times out a call that takes too long (504)", async () => {
    configure();
    script = () => ({ content: "late", delayMs: 10_000 });
    await expect(agentLlm({ provider: "xai", router: providersRouter(), timeoutMs: 50 })(call())).rejects.toMatchObject(
      {
        status: 504,
      },
    );
  });
});

describe("toolOutcomes", () => {
  it("lists tool results and errors of every step in order, with the results' sources", () => {
    const steps = [
      {
        content: [
          { type: "text", text: "x" },
          {
            type: "tool-result",
            toolCallId: "1",
            toolName: "arxiv_search",
            input: { query: "a" },
            output: { results: [{ title: "P", url: "https://p.example" }] },
          },
          {
            type: "tool-error",
            toolCallId: "2",
            toolName: "news_search",
            input: { query: "a" },
            error: new GatewayError(503, "news is not configured"),
          },
        ],
      },
      { content: [{ type: "tool-error", toolCallId: "3", toolName: "nope", input: {}, error: "no such tool" }] },
    ] as never;
    expect(toolOutcomes(steps, TOOLS)).toEqual({
      toolCalls: [
        { tool: "arxiv_search", args: { query: "a" }, ok: true },
        { tool: "news_search", args: { query: "a" }, ok: false, error: "news is not configured" },
        { tool: "nope", args: {}, ok: false, error: "no such tool" },
      ],
      sources: [{ title: "P", url: "https://p.example", source: "arxiv" }],
    });
  });
});
