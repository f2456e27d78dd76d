import { SpanKind } from "@opentelemetry/api";
import { GatewayError, RateLimitError } from "../../errors.ts";
import { attemptAttributes, type GenAiOperation } from "../../observability/genai.ts";
import type { TraceScope } from "../../observability/trace-scope.ts";
import type { CallStop } from "../../upstream/call-stop.ts";
import { UpstreamStatusError } from "../../upstream/http.ts";
import { isConfigured, providerEntry, type ProviderEntry } from "../../upstream/llm-catalogue.ts";
import type { ModelRules } from "../../gateway/keys/record.ts";
import type { ChatTarget } from "../call/index.ts";
import { splitModel } from "../compat/target.ts";
import { MinuteBudget, type MinuteLimits } from "./minute-budget.ts";
import { DeploymentStats, orderCandidates, type OrderContext, type Strategy } from "./balance.ts";
import type { BreakerBoard, BreakerState } from "./breaker.ts";
import { STRATEGIES, type AliasCachePolicy } from "./config.ts";
import type { Deployment, Routing } from "./deployments.ts";
import { applyModelRules, ModelRefusedError } from "./model-rules.ts";
import {
  breakerOutcome,
  classifyFailure,
  DEFAULT_RETRY_POLICY,
  pause,
  RetryBudget,
  type RetryPolicy,
} from "./retry.ts";

/** A deployment as the router sends to it: its provider's entry with the deployment's credential and origin. */
export type RouteCandidate = {
  /** The deployment's name: its breaker's and its statistics' key. */
  name: string;
  weight: number;
  entry: ProviderEntry;
  /** The provider's model id. */
  modelId: string;
  /** Its label in /metrics: a known deployment's name, else the provider's (client-named models are unbounded). */
  label: string;
  /**
   * Known at start (the file's deployments, the providers' implicit ones): only these keep statistics,
   * which the model names clients make up would grow without end.
   */
  known: boolean;
  /**
   * The owner whose own provider key the entry carries (owner-keys.ts): its failures count against a
   * breaker of this deployment and owner alone, and a key the provider refuses moves on to the next
   * deployment (the operator's, under prefer) instead of ending the request.
   */
  owner?: string;
  /** The deployment's own requests and tokens per minute, when the routing file sets them. */
  limits?: MinuteLimits;
  /** Which of the request's models it serves: absent for the model, 1, 2… for its fallbacks in order. */
  place?: number;
};

export type AttemptOutcome = "ok" | "retried" | "failed" | "skipped";

/** One attempt on a deployment, or one left out (its breaker open, its credential not set, the key's rules). */
export type AttemptRecord = {
  deployment: string;
  provider: string;
  model: string;
  status?: number;
  ms: number;
  outcome: AttemptOutcome;
  reason?: string;
  /** Sent on the owner's own provider key. */
  ownerKey?: true;
};

/** One request's route: the deployments to try in order, and what happened to each (filled by `run`). */
export type Plan = {
  /** What the client asked for, and the name its answer carries: the alias, or provider/model. */
  model: string;
  /** The answer's id and creation time, for answers the gateway writes itself. */
  id: string;
  created: number;
  candidates: RouteCandidate[];
  /**
   * Fallback models the calling key's rules refuse, with their deployments (never tried): `run` records
   * each as skipped ("denied-by-key") once it gets past the models placed before it, and removes it.
   */
  refused?: { place: number; candidates: RouteCandidate[] }[];
  /** Further attempts on one deployment after a retryable failure. */
  retries: number;
  /** The most one attempt may take; absent: the request's deadline alone. */
  timeoutMs?: number;
  /** The alias's response cache policy, when its routing file gives one. */
  cache?: AliasCachePolicy;
  attempts: AttemptRecord[];
  /** The span the attempts hang under (the request's, an agent's), when tracing is on. */
  trace?: TraceScope;
  /** What the attempts' spans call the operation (GenAI conventions); chat unless said. */
  operation?: GenAiOperation;
};

export type Routed<T> = { value: T; candidate: RouteCandidate };

/** A client's `x-gateway-route`: another strategy than the alias's, or one deployment pinned. */
export type RouteOverride = { strategy?: Strategy; pin?: string };

export type RouterOptions = {
  breakers: BreakerBoard;
  stats?: DeploymentStats;
  /** Kept across a reload of the routing file, as the breakers and statistics are. */
  minutes?: MinuteBudget;
  /** Retries per deployment when an alias says none (default 1). */
  retries?: number;
  policy?: Partial<RetryPolicy>;
  now?: () => number;
  random?: () => number;
  /** Waits between attempts; stops early (false) when the request stops. */
  wait?: (ms: number, stop: CallStop) => Promise<boolean>;
  /** Each attempt's end, for /metrics; the plan holds the request's attempts so far, this one last. */
  observe?: (label: string, outcome: AttemptOutcome, plan: Plan) => void;
};

type AliasRoute = {
  strategy: Strategy;
  candidates: RouteCandidate[];
  retries?: number;
  timeoutMs?: number;
  cache?: AliasCachePolicy;
};

/**
 * Where a model call goes, and its retries and fallbacks: one per runtime, built from the operator's
 * routing file. `plan` turns the client's model into deployments in order (an alias by its strategy, a
 * `provider/model` to that provider plus any declared deployments of the same model: a key pool); `run`
 * tries them. On the healthy path (breakers closed) both only read memory: a Map lookup or two, one
 * array, one target per attempt.
 */
export class ModelRouter {
  readonly breakers: BreakerBoard;
  readonly stats: DeploymentStats;
  /** Requests and tokens this minute of the deployments that declare `rpm` or `tpm`. */
  readonly minutes: MinuteBudget;
  private readonly aliases = new Map<string, AliasRoute>();
  /** Declared deployments by `provider/model`: the alternates of a request naming that model. */
  private readonly pools = new Map<string, RouteCandidate[]>();
  /** A provider's entry as a `provider/model` request reaches it: a deployment named after it may set its credential and origin. */
  private readonly providerEntries = new Map<string, ProviderEntry>();
  private readonly known: RouteCandidate[] = [];
  private readonly retries: number;
  private readonly policy: RetryPolicy;
  private readonly now: () => number;
  private readonly order: OrderContext;
  private readonly wait: (ms: number, stop: CallStop) => Promise<boolean>;
  private readonly observe: RouterOptions["observe"];

  constructor(routing: Routing, options: RouterOptions) {
    this.breakers = options.breakers;
    this.stats = options.stats ?? new DeploymentStats();
    this.minutes = options.minutes ?? new MinuteBudget(options.now);
    this.retries = options.retries ?? 1;
    this.now = options.now ?? Date.now;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.policy, now: this.now };
    this.order = { stats: this.stats, ...(options.random && { random: options.random }) };
    this.wait = options.wait ?? pause;
    this.observe = options.observe;
    const byName = new Map<string, RouteCandidate>();
    for (const d of routing.deployments.values()) {
      const candidate = toCandidate(d);
      byName.set(d.name, candidate);
      this.known.push(candidate);
      if (d.implicit) continue;
      if (d.name === d.provider) this.providerEntries.set(d.provider, candidate.entry);
      const key = `${d.provider}/${d.model}`;
      const pool = this.pools.get(key);
      if (pool) pool.push(candidate);
      else this.pools.set(key, [candidate]);
    }
    for (const alias of routing.aliases.values()) {
      this.aliases.set(alias.name, {
        strategy: alias.strategy,
        candidates: alias.deployments.map((t) => ({ ...byName.get(t.deployment.name)!, weight: t.weight })),
        ...(alias.retries !== undefined && { retries: alias.retries }),
        ...(alias.timeoutMs !== undefined && { timeoutMs: alias.timeoutMs }),
        ...(alias.cache && { cache: alias.cache }),
      });
    }
  }

  /** Whether the operator's routing file declares `name` as an alias. */
  isAlias(name: string): boolean {
    return this.aliases.has(name);
  }

  /**
   * The deployments for a client's model, in the order to try them: an alias's by its strategy (or the
   * client's `x-gateway-route`), else `provider/model` as the compatible surfaces have always read it
   * (an unknown provider is the same 400) with its key pool after it. Breakers are not asked here.
   * The calling key's `rules` (model-rules.ts) refuse the model with a 403 or drop deployments.
   */
  plan(model: string, answer: { id: string; route?: string; rules?: ModelRules }): Plan {
    const override = parseRouteHeader(answer.route);
    const alias = this.aliases.get(model);
    let name: string;
    let candidates: RouteCandidate[];
    let strategy: Strategy = "fallback";
    if (alias) {
      name = model;
      candidates = alias.candidates;
      strategy = alias.strategy;
    } else {
      const split = splitModel(model);
      name = `${split.provider}/${split.model}`;
      const entry = this.providerEntries.get(split.provider) ?? providerEntry(split.provider)!;
      const direct: RouteCandidate = {
        name,
        weight: 1,
        entry,
        modelId: split.model,
        label: split.provider,
        known: false,
      };
      const pool = this.pools.get(name);
      candidates = pool ? [direct, ...pool] : [direct];
    }
    if (override?.pin !== undefined) {
      const pinned = candidates.filter((c) => c.name === override.pin);
      if (pinned.length === 0)
        throw new GatewayError(
          400,
          `x-gateway-route: deployment '${override.pin}' does not serve '${name}'; it is served by ${candidates.map((c) => c.name).join(", ")}`,
        );
      candidates = pinned;
    }
    if (answer.rules) candidates = applyModelRules(name, candidates, answer.rules);
    return {
      model: name,
      id: answer.id,
      created: Math.floor(this.now() / 1000),
      candidates: orderCandidates(candidates, override?.strategy ?? strategy, this.order),
      retries: alias?.retries ?? this.retries,
      ...(alias?.timeoutMs !== undefined && { timeoutMs: alias.timeoutMs }),
      ...(alias?.cache && { cache: alias.cache }),
      attempts: [],
    };
  }

  /**
   * Adds the deployments of `fallbacks` (aliases or provider/model, in order) after the plan's own, each
   * within the key's rules. A fallback the rules refuse outright is passed over rather than the request
   * refused (the model itself refused is plan's 403): it goes to `plan.refused`, so the request log
   * shows it skipped if the request gets that far.
   */
  addFallbacks(plan: Plan, fallbacks: readonly string[], answer: { id: string; rules?: ModelRules }): void {
    fallbacks.forEach((fallback, i) => {
      const place = i + 1;
      try {
        for (const candidate of this.plan(fallback, answer).candidates) plan.candidates.push({ ...candidate, place });
      } catch (err) {
        if (!(err instanceof ModelRefusedError)) throw err;
        (plan.refused ??= []).push({ place, candidates: this.plan(fallback, { id: answer.id }).candidates });
      }
    });
  }

  /**
   * Tries the plan's deployments until one answers: a deployment whose breaker is open (or whose
   * credential is not set) is skipped, as is a fallback the key's rules refuse; a retryable failure is
   * retried on the same deployment after a backoff or its Retry-After, up to the plan's retries, then
   * the next deployment is tried; a failure no other attempt would change (a 400, a refusal, the client
   * gone) ends the request at once. Each attempt gets a child of `requestStop`, whose deadline
   * (`deadlineAt`, ms since the epoch) bounds them all; `requestStop` itself is the caller's to release.
   * When all fail, the last failure is thrown.
   */
  async run<T>(
    plan: Plan,
    attempt: (target: ChatTarget, stop: CallStop) => Promise<T>,
    requestStop: CallStop,
    deadlineAt: number,
  ): Promise<Routed<T>> {
    // Made at the first failure: the healthy path needs none.
    let budget: RetryBudget | undefined;
    let tried = 0;
    let lastError: unknown;
    let unconfigured: ProviderEntry | undefined;
    for (const candidate of plan.candidates) {
      if (plan.refused) this.passRefused(plan, candidate.place ?? 0);
      if (!isConfigured(candidate.entry)) {
        unconfigured ??= candidate.entry;
        this.note(plan, candidate, "skipped", 0, "not-configured");
        continue;
      }
      if (candidate.limits) {
        const over = this.minutes.refusal(candidate.name, candidate.limits);
        if (over) {
          this.note(plan, candidate, "skipped", 0, over);
          continue;
        }
      }
      const breaker = breakerName(candidate);
      // Asked only now: in half-open this takes the deployment's one probe, which this request will use.
      if (!this.breakers.allows(breaker)) {
        this.note(plan, candidate, "skipped", 0, "breaker-open");
        continue;
      }
      for (let retry = 0; ; retry++) {
        tried++;
        if (candidate.limits) this.minutes.request(candidate.name);
        const started = this.now();
        const ended = candidate.known ? this.stats.start(candidate.name) : undefined;
        const stop = requestStop.child(plan.timeoutMs);
        const span = plan.trace && attemptSpan(plan.trace, plan, candidate, retry);
        // The provider's request carries it (provider-http.ts): the provider's own trace continues this one.
        if (span) stop.traceparent = span.traceparent;
        const target: ChatTarget = {
          entry: candidate.entry,
          modelId: candidate.modelId,
          name: plan.model,
          id: plan.id,
          created: plan.created,
          // The answer's finish reasons (and captured content) go on it (lib/llm/call/answer-trace.ts).
          trace: span,
        };
        try {
          const value = await attempt(target, stop);
          const ms = this.now() - started;
          ended?.(ms, true);
          this.breakers.record(breaker, "success");
          this.note(plan, candidate, "ok", ms);
          // Open until the answer's usage is known: the request's end, a stream's last byte.
          if (span) plan.trace!.hold(span);
          return { value, candidate };
        } catch (err) {
          // completeOn and a failed streamOn release it already; an attempt that threw earlier may not have.
          stop.release();
          const ms = this.now() - started;
          ended?.(ms, false);
          const owned = candidate.owner !== undefined;
          const failure = classifyFailure(err, { now: this.now(), ownCredential: owned });
          this.breakers.record(breaker, ownRefusal(err) ? "not-counted" : breakerOutcome(failure));
          lastError = err;
          budget ??= new RetryBudget(deadlineAt, {
            ...this.policy,
            maxAttempts: plan.candidates.length * (plan.retries + 1),
          });
          const step = requestStop.aborted ? ({ action: "give-up" } as const) : budget.planNext(tried, failure);
          const waitMs = step.action === "retry" && retry < plan.retries ? step.waitMs : undefined;
          this.note(plan, candidate, waitMs === undefined ? "failed" : "retried", ms, failure.reason, failure.status);
          if (span) {
            if (failure.status !== undefined) span.set({ "http.response.status_code": failure.status });
            span.set({ "gateway.retry_reason": failure.reason }).fail(failure.reason).end();
          }
          // The owner's key refused: the next deployment (the operator's key, under prefer) may still answer.
          if (owned && failure.reason === "credentials" && !requestStop.aborted) {
            // Said as what it is: the gateway's own credentials are fine, the owner's stored key is not.
            const provider = candidate.entry.name;
            lastError = new GatewayError(
              502,
              `${provider} refused the ${provider} key you stored (/v1/provider-keys, the portal's Provider keys): replace or delete it`,
            );
            break;
          }
          if (step.action === "give-up") {
            // Out of attempts is the end of the plan: a refused fallback after it was reached.
            if ("why" in step && step.why === "attempts" && plan.refused) this.passRefused(plan, Infinity);
            throw err;
          }
          if (waitMs === undefined) break;
          if (!(await this.wait(waitMs, requestStop))) throw err;
        }
      }
    }
    if (plan.refused) this.passRefused(plan, Infinity);
    if (lastError !== undefined) throw lastError;
    if (unconfigured && plan.attempts.every((a) => a.reason === "not-configured"))
      throw new GatewayError(503, `${unconfigured.name} is not configured: set ${unconfigured.credential}`);
    if (plan.attempts.some((a) => a.reason === "over-rpm" || a.reason === "over-tpm"))
      throw new RateLimitError(
        `every deployment serving '${plan.model}' has had its requests or tokens for this minute: try again after ${Math.ceil(this.minutes.msToNextMinute() / 1000)} s`,
        Math.ceil(this.minutes.msToNextMinute() / 1000),
        "minute",
      );
    throw new GatewayError(
      503,
      `every deployment serving '${plan.model}' is failing and its circuit breaker is open: try again shortly`,
    );
  }

  /** The breakers of the deployments the routing file names (declared, or listed by an alias), by metrics label. */
  *breakerStates(): Iterable<[string, BreakerState]> {
    for (const candidate of this.known) yield [candidate.label, this.breakers.state(candidate.name)];
  }

  close(): Promise<void> {
    return this.breakers.close();
  }

  /** Records the refused fallbacks placed before `place` as skipped, in order, and takes them off the plan. */
  private passRefused(plan: Plan, place: number): void {
    while (plan.refused?.length && plan.refused[0]!.place < place)
      for (const candidate of plan.refused.shift()!.candidates)
        this.note(plan, candidate, "skipped", 0, "denied-by-key");
  }

  private note(
    plan: Plan,
    candidate: RouteCandidate,
    outcome: AttemptOutcome,
    ms: number,
    reason?: string,
    status?: number,
  ): void {
    plan.attempts.push({
      deployment: candidate.name,
      provider: candidate.entry.name,
      model: candidate.modelId,
      ...(status !== undefined && { status }),
      ms,
      outcome,
      ...(reason !== undefined && { reason }),
      ...(candidate.owner !== undefined && { ownerKey: true as const }),
    });
    this.observe?.(candidate.label, outcome, plan);
    if (outcome === "skipped" && plan.trace)
      plan.trace.event("gateway.deployment_skipped", {
        "gateway.deployment": candidate.name,
        "gateway.skip_reason": reason ?? "",
      });
  }
}

/** An attempt's span, as the GenAI conventions name a model call: `chat gpt-4o-mini`, kind CLIENT. */
function attemptSpan(trace: TraceScope, plan: Plan, candidate: RouteCandidate, retry: number): TraceScope {
  const operation = plan.operation ?? "chat";
  const span = trace.child(
    `${operation} ${candidate.modelId}`,
    attemptAttributes(operation, candidate.entry.name, candidate.modelId, candidate.name, retry),
    SpanKind.CLIENT,
  );
  if (candidate.owner !== undefined) span.set({ "gateway.credential": "owner" });
  if (plan.model !== `${candidate.entry.name}/${candidate.modelId}`) span.set({ "gateway.alias": plan.model });
  return span;
}

/**
 * A 4xx of the gateway's own (a body the deployment's wire cannot carry, a feature the operator has not
 * allowed), thrown before the deployment was asked: it says nothing of the deployment's health, and
 * must not close a half-open breaker whose probe it held.
 */
function ownRefusal(err: unknown): boolean {
  return err instanceof GatewayError && !(err instanceof UpstreamStatusError) && err.status < 500;
}

/** A breaker per deployment, and one per deployment and owner for an owner's key: their failures are theirs alone. */
function breakerName(candidate: RouteCandidate): string {
  return candidate.owner === undefined ? candidate.name : `${candidate.name}@owner:${candidate.owner}`;
}

/** The deployment's provider entry with its own credential and origin, made once, at start. */
function toCandidate(d: Deployment): RouteCandidate {
  const base = providerEntry(d.provider)!;
  const entry: ProviderEntry =
    d.credential === base.credential && d.origin === undefined
      ? base
      : { ...base, credential: d.credential, ...(d.origin !== undefined && { fixedOrigin: d.origin }) };
  const limits = d.rpm !== undefined || d.tpm !== undefined ? { rpm: d.rpm, tpm: d.tpm } : undefined;
  return {
    name: d.name,
    weight: d.weight,
    entry,
    modelId: d.model,
    label: d.name,
    known: true,
    ...(limits && { limits }),
  };
}

/** `x-gateway-route`: a strategy's name, or `deployment=<name>` to pin one; anything else is a 400. */
export function parseRouteHeader(value: string | undefined): RouteOverride | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text.startsWith("deployment=")) {
    const pin = text.slice("deployment=".length).trim();
    if (pin) return { pin };
  } else {
    const strategy = text.replaceAll("_", "-");
    if ((STRATEGIES as readonly string[]).includes(strategy)) return { strategy: strategy as Strategy };
  }
  throw new GatewayError(
    400,
    `x-gateway-route: '${text.slice(0, 100)}' is neither a strategy (${STRATEGIES.join(", ")}) nor deployment=<name>`,
  );
}
