import { Hono } from "hono";
import type { AgentCall, AgentLlm, AgentReply, AgentRole } from "../../lib/agents/types.ts";
import { listen } from "../support/listen.ts";

// Fakes for the research agents: a loopback provider speaking OpenAI's Chat Completions
// (what xai speaks through @ai-sdk/openai-compatible), scripted per agent role, and an in-process
// AgentLlm for the orchestrators' logic tests. The role is read from the system prompt, which each
// agent opens with "Role: <role>." (lib/agents).

export type FakeRole = AgentRole | "unknown";

type Delay = { delayMs?: number };
export type FakeTurn =
  | ({ content: string; usage?: { prompt_tokens: number; completion_tokens: number } } & Delay)
  | ({ toolCalls: Array<{ name: string; arguments: unknown }> } & Delay)
  | ({ status: number; error?: string } & Delay);

type WireMessage = { role: string; content?: string | null; tool_calls?: unknown[] };
export type ChatBody = {
  model: string;
  messages: WireMessage[];
  tools?: Array<{ type: "function"; function: { name: string } }>;
  tool_choice?: unknown;
  [field: string]: unknown;
};

export type FakeRequest = {
  role: FakeRole;
  body: ChatBody;
  /** This request's place among all the fake has received, from 0. */
  callIndex: number;
  /** The contents of the tool results sent back so far in this conversation (empty on its first turn). */
  toolResults: string[];
  /** The system prompt's text, and the first user message's. */
  system: string;
  prompt: string;
};

export type FakeResearchLlm = {
  url: string;
  /** `traceparent`: the header the request came with, if any (a traced gateway's attempt span). */
  requests: Array<{ path: string; body: ChatBody; role: FakeRole; model: string; traceparent?: string }>;
  /** Requests whose client went away before their (delayed) reply was sent. */
  aborted(): number;
  close(): Promise<void>;
};

export type FakeResearchLlmOptions = {
  key: string;
  /** The turn for a request; undefined falls back to `defaultTurn`. */
  script?: (req: FakeRequest) => FakeTurn | undefined;
};

export const roleOf = (system: string): FakeRole => {
  const m = /^Role: (\w+)\./.exec(system.trim());
  const roles: AgentRole[] = ["breakdown", "worker", "synthesizer", "summary", "searcher", "merger", "planner", "chat"];
  return roles.find((r) => r === m?.[1]) ?? "unknown";
};

/** `n` subtasks as the breakdown (or planner) writes them, numbered. */
export const numberedList = (n: number, label = "Subtask") =>
  Array.from({ length: n }, (_, i) => `${i + 1}. ${label} ${i + 1} about the task`).join("\n");

const requested = (system: string) => Number(/exactly (\d+)/.exec(system)?.[1] ?? 3);

/**
 * The default script: breakdown and planner answer a numbered list of as many items as the system
 * prompt asks for; a worker (or chat/hive step agent) offered `wikipedia_search` first calls it, then
 * answers naming what it found; every other role answers a short line.
 */
export function defaultTurn(req: FakeRequest): FakeTurn {
  if (req.role === "breakdown" || req.role === "planner") return { content: numberedList(requested(req.system)) };
  const offered = req.body.tools?.some((t) => t.function.name === "wikipedia_search");
  if (req.role === "worker" || req.role === "chat") {
    if (offered && !req.toolResults.length && req.body.tool_choice !== "none")
      return { toolCalls: [{ name: "wikipedia_search", arguments: { query: "Ada Lovelace", limit: 2 } }] };
    const found = req.toolResults.join(" ").match(/"title":"([^"]+)"/)?.[1];
    return { content: `Findings of the ${req.role}${found ? `, citing ${found}` : ""}.` };
  }
  return { content: `The ${req.role}'s answer.` };
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Waits ms unless the signal aborts first; true when it did. */
const waitOrAbort = (ms: number, signal: AbortSignal) =>
  new Promise<boolean>((resolve) => {
    if (signal.aborted) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      { once: true },
    );
  });

/** OpenAI Chat Completions (`POST /v1/chat/completions`, not streamed), scripted per agent role. */
export async function startFakeResearchLlm(options: FakeResearchLlmOptions): Promise<FakeResearchLlm> {
  const requests: FakeResearchLlm["requests"] = [];
  let aborted = 0;
  const app = new Hono();
  app.post("/v1/chat/completions", async (c) => {
    const signal = c.req.raw.signal;
    const body = (await c.req.json()) as ChatBody;
    const system = body.messages.find((m) => m.role === "system")?.content ?? "";
    const role = roleOf(system);
    const callIndex = requests.length;
    requests.push({ path: c.req.path, body, role, model: body.model, traceparent: c.req.header("traceparent") });
    if (c.req.header("authorization") !== `Bearer ${options.key}`)
      return c.json({ error: { message: "Incorrect API key provided", type: "invalid_request_error" } }, 401);
    const req: FakeRequest = {
      role,
      body,
      callIndex,
      toolResults: body.messages.filter((m) => m.role === "tool").map((m) => String(m.content ?? "")),
      system,
      prompt: body.messages.find((m) => m.role === "user")?.content ?? "",
    };
    const turn = options.script?.(req) ?? defaultTurn(req);
    if (turn.delayMs && (await waitOrAbort(turn.delayMs, signal))) {
      aborted += 1;
      return c.body(null, 499 as never);
    }
    if ("status" in turn)
      return c.json(
        { error: { message: turn.error ?? "failure requested by test", type: "server_error" } },
        turn.status as 500,
      );
    const promptTokens = JSON.stringify(body.messages).length >> 2;
    const base = { id: `chatcmpl-${callIndex}`, object: "chat.completion", created: 1_760_000_000, model: body.model };
    if ("toolCalls" in turn)
      return c.json({
        ...base,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: turn.toolCalls.map((t, i) => ({
                id: `call_${callIndex}_${i}`,
                type: "function",
                function: { name: t.name, arguments: JSON.stringify(t.arguments) },
              })),
            },
            finish_reason: "tool_calls",
          },
        ],
        usage: { prompt_tokens: promptTokens, completion_tokens: 10, total_tokens: promptTokens + 10 },
      });
    const usage = turn.usage ?? { prompt_tokens: promptTokens, completion_tokens: words(turn.content) };
    return c.json({
      ...base,
      choices: [{ index: 0, message: { role: "assistant", content: turn.content }, finish_reason: "stop" }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
  });
  const { url, close } = await listen(app.fetch);
  return { url, requests, aborted: () => aborted, close };
}

/** What the in-process fake's script may answer for a call: part of a reply, or a throw (a failed agent). */
export type FakeAgentScript = (
  call: AgentCall,
) => Partial<AgentReply> | undefined | Promise<Partial<AgentReply> | undefined>;

export type FakeAgentLlm = AgentLlm & { calls: AgentCall[] };

/**
 * An AgentLlm without a network, for the orchestrators' logic: records every call and answers from
 * `script` (undefined: the default per role, as for the wire fake), with 10 prompt and 5 completion
 * tokens and the tier's name as its model unless the script says otherwise.
 */
export function fakeAgentLlm(script?: FakeAgentScript): FakeAgentLlm {
  const calls: AgentCall[] = [];
  const llm = async (call: AgentCall): Promise<AgentReply> => {
    calls.push(call);
    const scripted = await script?.(call);
    const content =
      call.role === "breakdown" || call.role === "planner"
        ? numberedList(requested(call.system))
        : `${call.agentId} (${call.role}) answer`;
    return {
      content,
      provider: "xai",
      model: `model-${call.tier}`,
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      toolCalls: [],
      sources: [],
      ...scripted,
    };
  };
  return Object.assign(llm, { calls });
}
