import type { RequestAttempt } from "./request-attempts.ts";
import type { GuardrailDecision } from "../guardrails/decision.ts";
import type { RequestBodies } from "./body-capture.ts";
import type { RequestTags } from "./request-tags.ts";

/** How much of a failed request's error message the request log keeps. */
export const ERROR_CHARS = 1000;
/** How much of a caller's User-Agent the request log keeps. */
export const USER_AGENT_CHARS = 300;

/**
 * Uses of a provider's features billed beyond tokens (Anthropic's web searches, a priority service
 * tier...), by feature name: what the provider said one call used, or a day's sum in usage_daily_feature.
 */
export type FeatureUse = Record<string, number>;

/**
 * What the response cache did for a model call asked to use it (usage_events.cache): a miss (the
 * provider answered, metered as usual), or a hit with what the stored answer had cost when the provider
 * gave it, which this request did not pay (its tokens and cost are 0) and the dashboards count as saved.
 */
export type CacheUse =
  | { state: "miss" }
  | {
      state: "hit";
      ageS: number;
      provider: string;
      model: string;
      promptTokens: number;
      completionTokens: number;
      /** A semantic hit: the cosine similarity of the question whose answer it was. */
      similarity?: number;
    };

export type UsageEventInput = {
  keyId: string;
  requestId: string;
  method: string;
  route: string;
  /** The scope of the area that served the route (the guard's), which every usage view groups by. */
  area: string;
  status: number;
  latencyMs: number;
  bytesIn: number;
  bytesOut: number;
  provider?: string;
  model?: string;
  promptTokens?: number;
  completionTokens?: number;
  /** Beyond tokens, with `provider`: written to usage_daily_feature, priced by the budgets (featureCost). */
  features?: FeatureUse;
  at: Date;
  /** The model calls' attempts, when one was retried, fell over or skipped a deployment (usage_events.attempts). */
  attempts?: RequestAttempt[];
  /** The W3C trace id of the request's span, when tracing is on (usage_events.trace_id). */
  traceId?: string;
  /** The response cache's part, when the request asked for it. */
  cache?: CacheUse;
  /** The message a failed request's caller was answered with (capped: ERROR_CHARS). */
  error?: string;
  /** The caller's User-Agent (capped: USER_AGENT_CHARS). */
  userAgent?: string;
  /** The caller's tags (x-gateway-metadata, lib/usage/request-tags.ts). */
  tags?: RequestTags;
  /** A model call's request and answer, when REQUEST_LOG_BODIES is on (request_bodies). */
  bodies?: RequestBodies;
  /** What the key's guardrail policy decided (usage_events.guardrails): checks, actions, kinds; never a value. */
  guardrails?: GuardrailDecision[];
  /** Set by the meter: past the key's request-log rate, so counted in the rollups but given no usage_events row. */
  unlogged?: boolean;
};
