import { GatewayError } from "../../errors.ts";
import type { Call } from "../../gateway/pipeline/call.ts";
import type { CallStop } from "../../upstream/call-stop.ts";
import type { ChatTarget } from "../call/index.ts";
import type { ChatStream } from "../chat-types.ts";
import { llmTimeoutMs } from "../chat.ts";
import type { GenAiOperation } from "../../observability/genai.ts";
import type { ModelRouter, Plan } from "../routing/router.ts";
import { ownerCandidates } from "../routing/runtime-owner-keys.ts";
import { modelRouter } from "../routing/runtime-router.ts";

/** One attempt of a surface's call on the target the router chose: the call built for that target's wire. */
export type ChatAttempt<T> = (target: ChatTarget, stop: CallStop) => Promise<T>;

/**
 * A compatible surface's model call through the model router: `plan` says where it may go (its `model`
 * is the name the answer carries), `whole` or `stream` runs it. Either sets `x-gateway-provider`,
 * `x-gateway-model` (the provider's model id) and `x-gateway-attempts` on the answer, and the attempts
 * on an error too; a retry, a fallback or a skipped deployment also goes to the request log (Call.noteAttempts).
 * The request's deadline (LLM_TIMEOUT_MS) bounds every attempt together.
 */
export class ChatRoute {
  constructor(
    private readonly c: Call,
    private readonly router: ModelRouter,
    readonly plan: Plan,
  ) {}

  async whole<T>(attempt: ChatAttempt<T>): Promise<T> {
    const ms = llmTimeoutMs();
    const stop = this.c.stop(ms);
    try {
      const { value, candidate } = await this.router.run(this.plan, attempt, stop, Date.now() + ms);
      // A deployment with its own tokens per minute counts what the handler reports as this call's usage.
      if (candidate.limits?.tpm !== undefined) {
        const { minutes } = this.router;
        this.c.onReport = (u) => minutes.tokens(candidate.name, (u.promptTokens ?? 0) + (u.completionTokens ?? 0));
      }
      return value;
    } finally {
      stop.release();
      this.setHeaders();
    }
  }

  /**
   * A stream fails over only while streamOn throws (no answer yet, nothing sent to the client); once
   * it returns, the stream is the client's, and a failure in it is the surface's error event. The
   * request's deadline and the client's leaving keep bounding it until it ends.
   */
  async stream(attempt: ChatAttempt<ChatStream>): Promise<ChatStream> {
    const ms = llmTimeoutMs();
    const stop = this.c.stop(ms);
    try {
      const { value, candidate } = await this.router.run(this.plan, attempt, stop, Date.now() + ms);
      const release = () => stop.release();
      value.finished.then(release, release);
      if (candidate.limits?.tpm !== undefined) {
        const { minutes } = this.router;
        void value.finished.then(({ usage }) =>
          minutes.tokens(candidate.name, usage.prompt_tokens + usage.completion_tokens),
        );
      }
      return value;
    } catch (err) {
      stop.release();
      throw err;
    } finally {
      this.setHeaders();
    }
  }

  /**
   * The providers that failed or were passed over (breaker open, not configured) before the one that
   * answered, itself left out: what /v1/llm/chat has always reported as `fallback_from`. Empty when the
   * first provider answered, retries included.
   */
  fellOverFrom(): string[] {
    const answered = this.plan.attempts.find((a) => a.outcome === "ok")?.provider;
    const from: string[] = [];
    for (const a of this.plan.attempts)
      if (a.outcome !== "ok" && a.outcome !== "retried" && a.provider !== answered && !from.includes(a.provider))
        from.push(a.provider);
    return from;
  }

  private setHeaders(): void {
    let tried = 0;
    for (const a of this.plan.attempts) {
      if (a.outcome === "skipped") continue;
      tried++;
      if (a.outcome !== "ok") continue;
      this.c.setHeader("x-gateway-provider", a.provider);
      this.c.setHeader("x-gateway-model", a.model);
      // The answer came on the key's owner's own provider key (GATEWAY_OWNER_KEYS).
      if (a.ownerKey) this.c.setHeader("x-gateway-credential", "owner");
    }
    this.c.setHeader("x-gateway-attempts", String(tried));
    this.c.noteAttempts(this.plan.attempts);
    // The healthy path logs nothing; a retry, a fallback or a skipped deployment is worth a line.
    if (this.plan.attempts.length > 1)
      this.c.runtime.logger.info(
        {
          requestId: this.c.requestId,
          traceId: this.c.trace?.traceId,
          model: this.plan.model,
          attempts: this.plan.attempts,
        },
        "model call retried or fell over",
      );
  }
}

/** What a caller may add to its model: the models to fall over to after it, and the body it came in. */
export type RouteExtras = {
  /**
   * Models (aliases or provider/model) whose deployments are tried after the model's own, in order; one
   * the key's rules refuse is skipped.
   */
  fallbacks?: readonly string[];
  /**
   * The request's body: its `gateway_route` field (what an SDK's `extra_body` sends) overrides the
   * strategy as `x-gateway-route` does, the header winning, and is removed so no provider sees it.
   */
  body?: object;
  /** What the attempts' trace spans call the call (GenAI conventions): chat unless said. */
  operation?: GenAiOperation;
};

/**
 * Where a model call may go: the client's model (an alias or provider/model), its `x-gateway-route`
 * or body `gateway_route`, any fallback models after it, and the id its answer carries.
 */
export async function chatRoute(c: Call, model: string, id: string, extras: RouteExtras = {}): Promise<ChatRoute> {
  const router = await modelRouter(c.runtime);
  const route = c.header("x-gateway-route") ?? bodyRoute(extras.body);
  // The key's model rules (model-rules.ts) hold for every plan made here.
  const rules = c.key?.models;
  const answer = { id, ...(route !== undefined && { route }), ...(rules && { rules }) };
  const plan = router.plan(model, answer);
  if (extras.fallbacks?.length) router.addFallbacks(plan, extras.fallbacks, { id, ...(rules && { rules }) });
  plan.candidates = await ownerCandidates(c.runtime, c.key?.userId, plan.candidates);
  if (c.trace) {
    plan.trace = c.trace;
    if (extras.operation) plan.operation = extras.operation;
  }
  return new ChatRoute(c, router, plan);
}

function bodyRoute(body: object | undefined): string | undefined {
  if (!body || !("gateway_route" in body)) return undefined;
  const value = body.gateway_route;
  delete (body as { gateway_route?: unknown }).gateway_route;
  if (typeof value !== "string")
    throw new GatewayError(400, "gateway_route must be a string: a strategy or deployment=<name>");
  return value;
}
