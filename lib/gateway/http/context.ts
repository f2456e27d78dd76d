import type { Admission } from "../runtime/limits/limiter.ts";
import type { KeyRecord } from "../keys/record.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { CacheUse, FeatureUse } from "../../usage/usage-event.ts";

/** What a handler may report about the work it did, for metering (provider calls, tokens). */
export type UsageDetail = {
  provider?: string;
  model?: string;
  promptTokens?: number;
  completionTokens?: number;
  /** Provider features used beyond tokens (server tools, a service tier), as the provider reported them. */
  features?: FeatureUse;
  bytesOut?: number;
  /** The response cache's part, when the request asked for it: a hit pays no provider (no provider, model or tokens above). */
  cache?: CacheUse;
};

/** A request's variables, as the pipeline sets them before the handler runs. */
export type RequestVariablesMap = {
  requestId: string;
  runtime: Runtime;
  key?: KeyRecord;
  admission?: Admission;
  usage?: UsageDetail;
};

/** What a helper that only reads the request's variables takes (a Call is one). */
export type RequestVariables = {
  get<K extends keyof RequestVariablesMap>(name: K): RequestVariablesMap[K];
};
