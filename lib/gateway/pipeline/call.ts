import { CallStop } from "../../upstream/call-stop.ts";
import { appendAttempts, worthKeeping, type RequestAttempt } from "../../usage/request-attempts.ts";
import type { GatewayInfo } from "./gateway-info.ts";
import type { RequestVariables, RequestVariablesMap, UsageDetail } from "../http/context.ts";
import type { KeyRecord } from "../keys/record.ts";
import type { Admission } from "../runtime/limits/limiter.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { GatewayRequest } from "./request.ts";
import type { TraceScope } from "../../observability/trace-scope.ts";

type Variables = RequestVariablesMap;

/**
 * What a route's handler is given besides its validated input: the request's variables (runtime, key,
 * admission, request id), the request itself (headers, a raw body for routes that read their own), the
 * client's leaving as a signal, and where to report the work done for metering.
 *
 * A class, not an object literal: a literal with a getter gives every request its own accessor, which
 * V8 keeps in a map in old space, and through that closure the whole request outlived every scavenge
 * (measured on GET /v1/key: ~2.7 MB promoted per scavenge and 11-14 ms scavenges, against ~0.3 MB and
 * ~1.5 ms with the getter on a prototype).
 */
export class Call implements RequestVariables {
  key: KeyRecord | undefined;
  admission: Admission | undefined;
  /** The work done (provider, model, tokens, bytes), as the handler reported it. */
  usage: UsageDetail | undefined;
  /** Headers the handler adds to its answer, or to its error (which deployment answered, how many attempts). */
  responseHeaders: Record<string, string> | undefined;
  /** The routed model calls' attempts worth recording in the request log (see noteAttempts); none on the healthy path. */
  attempts: RequestAttempt[] | undefined;
  /** The request's span when tracing is on: model calls' attempts and the stream hang under it. */
  trace: TraceScope | undefined;
  #signal: AbortSignal | undefined;

  constructor(
    readonly runtime: Runtime,
    readonly requestId: string,
    readonly request: GatewayRequest,
    readonly gateway: GatewayInfo,
    /** The route's template, as the request log names it, and its area's scope: for work metered beside the request's own. */
    readonly route: string,
    readonly area: string,
  ) {}

  get<K extends keyof Variables>(name: K): Variables[K] {
    switch (name) {
      case "runtime":
        return this.runtime as Variables[K];
      case "requestId":
        return this.requestId as Variables[K];
      case "key":
        return this.key as Variables[K];
      case "admission":
        return this.admission as Variables[K];
      case "usage":
        return this.usage as Variables[K];
      default:
        return undefined as Variables[K];
    }
  }

  header(name: string): string | undefined {
    return this.request.header(name.toLowerCase());
  }

  /** Aborted when the client leaves before the answer is complete; made on first use, once. */
  get signal(): AbortSignal {
    return (this.#signal ??= this.request.signal);
  }

  /** What stops this call's provider work: `ms` passing, or the client leaving (see CallStop). */
  stop(ms: number): CallStop {
    const stop = new CallStop(ms);
    if (this.#signal) return stop.follow(this.#signal);
    this.request.whenClientLeaves(() => stop.leave());
    return stop;
  }

  /** Adds a header to the answer, whether it succeeds or fails. */
  setHeader(name: string, value: string): void {
    (this.responseHeaders ??= {})[name] = value;
  }

  /** Undoes what the handler kept of its answer (a stored response), when a guardrail blocks that answer. */
  forgetAnswer: (() => Promise<unknown>) | undefined;

  /** Told of the usage reported: a routed deployment counting its tokens per minute (routed.ts). */
  onReport: ((usage: UsageDetail) => void) | undefined;

  /** The work done (provider, model, tokens), for metering. */
  report(usage: UsageDetail): void {
    this.usage = usage;
    this.onReport?.(usage);
  }

  /**
   * A routed model call's attempts, for the request log: kept (bounded) only when the call was retried,
   * fell over or skipped a deployment, so one attempt that answered costs a length check.
   */
  noteAttempts(attempts: readonly RequestAttempt[]): void {
    if (worthKeeping(attempts)) this.attempts = appendAttempts(this.attempts ?? [], attempts);
  }
}
