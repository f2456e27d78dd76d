import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context } from "hono";
import type { Admission } from "../runtime/limits/limiter.ts";
import type { KeyRecord } from "../keys/record.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { FeatureUse } from "../../usage/meter.ts";

/** What a handler may report about the work it did, for metering (provider calls, tokens). */
export type UsageDetail = {
  provider?: string;
  model?: string;
  promptTokens?: number;
  completionTokens?: number;
  /** Provider features used beyond tokens (server tools, a service tier), as the provider reported them. */
  features?: FeatureUse;
  bytesOut?: number;
};

export type GatewayEnv = {
  /** What @hono/node-server passes under Node; absent in-process (`app.request`). */
  Bindings: { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  Variables: {
    requestId: string;
    runtime: Runtime;
    key?: KeyRecord;
    admission?: Admission;
    usage?: UsageDetail;
    /** Set by handlers that stream: resolves when the stream ends or the client leaves. */
    streamDone?: Promise<void>;
  };
};

/** What a helper that only reads the request's variables takes: `get`, as a `c.var` read copies all of them. */
export type RequestVariables = Pick<Context<GatewayEnv>, "get">;
