import { RateLimitError } from "../errors.ts";
import { recordUsage, spendRefusal } from "../gateway/http/guard.ts";
import { reserveKeyTokens } from "../gateway/pipeline/token-reservation.ts";
import type { TokenReservation } from "../gateway/runtime/limits/limiter.ts";
import type { KeyRecord } from "../gateway/keys/record.ts";
import type { Runtime } from "../gateway/runtime/runtime.ts";
import { BudgetExceeded } from "../jobs/budget-exceeded.ts";
import type { TraceScope } from "../observability/trace-scope.ts";
import { policyFor } from "../guardrails/prompt-guard.ts";
import { screenToolResult } from "../guardrails/tool-screen.ts";
import { CallStop } from "../upstream/call-stop.ts";
import { keyById, toolAdmission } from "../tools/admission.ts";
import { modelRouter } from "../llm/routing/runtime-router.ts";
import { agentLlm } from "./agent-llm.ts";
import { estimateCostUsd } from "./cost.ts";
import type { AgentDeps, AgentReply, ResearchEvent, Source } from "./types.ts";

/** What a run has spent so far, as the task row and the status answer show it. */
export type Spend = { calls: number; prompt_tokens: number; completion_tokens: number; estimated_cost_usd: number };

export type RunScope = {
  keyId: string;
  /** The key's record when a request runs the work (a task finds it by keyId): its tool calls are admitted against it. */
  key?: KeyRecord;
  /** The usage events' route and area: the endpoint that started the work. */
  route: string;
  area: string;
  /** Usage request ids are `<requestId>:<agent id>`: the request's id, or the task's. */
  requestId: string;
  signal: AbortSignal;
  emit?: (event: ResearchEvent) => void;
  onSpend?: (spend: Spend) => void;
  /** The run's span when tracing is on (a task's `research.task`, a request's): its agents are spans under it. */
  trace?: TraceScope;
};

/** An agent whose model call answered before a budget stopped the run: what it found. */
export type FinishedAgent = { id: string; role: string; model: string; output: string; sources: Source[] };

/**
 * The agents' dependencies for one run: the provider's models, every answered model call metered to
 * the key (one usage event per agent call, tokens included, counted in /metrics too) and added to the
 * run's spend. Before each call the key's hard-stop budget is asked, and its tokens are reserved in every
 * token window over the key: once either refuses, the run stops (its calls in flight are aborted) with a
 * BudgetExceeded carrying the refusal, the agents that finished and the spend.
 */
export function researchDeps(rt: Runtime, provider: string, scope: RunScope): AgentDeps {
  const spend: Spend = { calls: 0, prompt_tokens: 0, completion_tokens: 0, estimated_cost_usd: 0 };
  const started = new Map<string, number>();
  const finished: FinishedAgent[] = [];
  const budgetStop = new CallStop().follow(scope.signal);
  const signal = budgetStop.signal;
  const onCall = (reply: AgentReply, call: { agentId: string; role: string }) => {
    finished.push({
      id: call.agentId,
      role: call.role,
      model: reply.model,
      output: reply.content,
      sources: reply.sources,
    });
    spend.calls += 1;
    spend.prompt_tokens += reply.usage.prompt_tokens;
    spend.completion_tokens += reply.usage.completion_tokens;
    spend.estimated_cost_usd += estimateCostUsd(reply.provider, reply.model, reply.usage);
    scope.onSpend?.({ ...spend });
    recordUsage(rt, {
      keyId: scope.keyId,
      requestId: `${scope.requestId}:${call.agentId}`,
      method: "AGENT",
      route: scope.route,
      area: scope.area,
      status: 200,
      latencyMs: performance.now() - (started.get(call.agentId) ?? performance.now()),
      bytesIn: 0,
      bytesOut: reply.content.length,
      provider: reply.provider,
      model: reply.model,
      promptTokens: reply.usage.prompt_tokens,
      completionTokens: reply.usage.completion_tokens,
      at: new Date(),
    });
  };
  const llm = agentLlm({ provider, router: modelRouter(rt), onCall });
  /** Stops the run with a refusal: it rejects the run (and every call in flight), as a cancel does with its reason. */
  const stopWith = (refused: RateLimitError) => {
    const stop = new BudgetExceeded(refused, { agents: [...finished], usage: { ...spend } });
    budgetStop.abort(stop);
    return Promise.reject(stop);
  };
  const keyOf = scope.key ? async () => scope.key! : keyById(rt, scope.keyId);
  return {
    llm: async (call) => {
      const refused = spendRefusal(rt, scope.keyId);
      if (refused) return stopWith(refused);
      // Each agent call's tokens are reserved in every token window over the key (its own, its user's,
      // team's, organisation's) and settled with what it used, as a model call through the API is.
      const key = await keyOf();
      let reservation: TokenReservation | undefined;
      try {
        const body = { system: call.system, prompt: call.prompt };
        reservation = key ? await reserveKeyTokens(rt, key, scope.route, body) : undefined;
      } catch (err) {
        if (err instanceof RateLimitError) return stopWith(err);
        throw err;
      }
      started.set(call.agentId, performance.now());
      try {
        const reply = await llm(call);
        reservation?.settle(reply.usage.prompt_tokens + reply.usage.completion_tokens);
        return reply;
      } catch (err) {
        reservation?.settle(0);
        throw err;
      }
    },
    emit: (event) => scope.emit?.(event),
    signal,
    trace: scope.trace,
    // Each tool call is one more request of the key (toolAdmission): once its limits or budget refuse,
    // the agents' tool calls fail without reaching the sources.
    toolContext: {
      cache: rt.upstreamCache,
      signal,
      admit: toolAdmission(rt, scope.key ? async () => scope.key! : keyById(rt, scope.keyId), scope),
      // What a tool brings back from a third party is read by the agent next: under the key's guardrail
      // policy it is screened for prompt injection first (guardrails/tool-screen.ts).
      screen: async (tool, result) => {
        const key = await keyOf();
        const policy = key ? policyFor(rt.config.routing, rt.levels.guardrailsOf(key), {}) : undefined;
        const screened = screenToolResult(policy, tool, result);
        for (const d of screened.decisions) {
          rt.metrics.guardrailDecisions.inc({ check: d.check, action: d.action });
          rt.logger.warn(
            { keyId: scope.keyId, requestId: scope.requestId, tool, check: d.check, action: d.action, score: d.score },
            "guardrails: a tool result an agent was to read looks like a prompt injection",
          );
        }
        return screened;
      },
    },
  };
}
