import { createHash } from "node:crypto";
import { GatewayError } from "../errors.ts";
import { httpClientSpan, httpClientStatus } from "../observability/http-client.ts";
import type { TraceScope } from "../observability/trace-scope.ts";
import { MemoryUpstreamCache, type UpstreamCache } from "./cache.ts";
import { CallStop } from "./call-stop.ts";
import { readCappedText } from "./capped-body.ts";
import { upstreamFailure, USER_AGENT } from "./http.ts";
import { upstreamOrigin } from "./origin.ts";

export type UpstreamOptions = {
  /** Short name: errors name it, and UPSTREAM_<NAME>_URL replaces its origin. */
  name: string;
  origin: string;
  timeoutMs?: number;
  /** How long a successful GET answer is reused; 0 disables caching. */
  cacheTtlMs?: number;
  retries?: number;
  /** Consecutive failures that open the circuit, and how long it stays open. */
  breaker?: { failures: number; cooldownMs: number };
};

export type UpstreamRequest = {
  path: string;
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  responseType?: "json" | "text";
  /** Another real origin of the same service (one override, UPSTREAM_<NAME>_URL, replaces them all). */
  origin?: string;
};

type BreakerState = { failures: number; openUntil: number };

/** What a data source calls its upstream through: the client, or the client under one traced request (`traced`). */
export type Upstream = Pick<UpstreamClient, "name" | "url" | "get" | "post">;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The one way the gateway calls a third-party API: a timeout, retries with jitter on 429/5xx
 * (honouring Retry-After), a response cache, coalescing of identical in-flight lookups, a circuit
 * breaker (opened by failures: 5xx, timeouts, unreachable; not by 429s), our User-Agent, and the
 * UPSTREAM_<NAME>_URL override. Failures are 502/504 naming the source; a 429 and an open circuit are 503.
 */
export class UpstreamClient {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly breaker: BreakerState = { failures: 0, openUntil: 0 };
  hits = 0;

  constructor(
    private readonly options: UpstreamOptions,
    private readonly cache: UpstreamCache = new MemoryUpstreamCache(),
  ) {}

  get name(): string {
    return this.options.name;
  }

  /**
   * This client for one traced request or agent: the same cache, breaker and coalescing, and each
   * request it sends is a CLIENT span under `trace` whose traceparent the upstream receives.
   */
  traced(trace: TraceScope): Upstream {
    return new TracedUpstream(this, trace);
  }

  url(req: UpstreamRequest): string {
    if (hasDotSegment(req.path))
      throw new GatewayError(400, `${this.options.name}: an id must not contain '.' or '..' path segments`);
    const url = new URL(req.path, `${upstreamOrigin(this.options.name, req.origin ?? this.options.origin)}/`);
    for (const [k, v] of Object.entries(req.query ?? {}))
      if (v !== undefined && v !== "") url.searchParams.set(k, String(v));
    return url.toString();
  }

  /**
   * A POST: never retried (it may not be idempotent) and never cached, but timed out, breaker-guarded
   * and mapped like a GET.
   */
  async post<T>(req: UpstreamRequest & { body: unknown }, trace?: TraceScope): Promise<T> {
    const body = await this.fetchWithRetries(
      this.url(req),
      { "content-type": "application/json", ...req.headers },
      { method: "POST", body: JSON.stringify(req.body) },
      0,
      trace,
    );
    return (req.responseType === "text" ? body : parseJson(body, this.options.name)) as T;
  }

  /** A GET; `trace`: the span its request (not a cached or coalesced answer) is a child of. */
  async get<T>(req: UpstreamRequest, trace?: TraceScope): Promise<T> {
    const url = this.url(req);
    const type = req.responseType ?? "json";
    const cacheKey = createHash("sha256")
      .update(`${this.options.name}\u0000${type}\u0000${url}\u0000${JSON.stringify(req.headers ?? {})}`)
      .digest("hex");
    const ttl = this.options.cacheTtlMs ?? 60_000;
    if (ttl > 0) {
      const cached = await this.cache.get(cacheKey);
      if (cached !== undefined) return (type === "json" ? JSON.parse(cached) : cached) as T;
    }
    const pending = this.inFlight.get(cacheKey);
    if (pending) return pending as Promise<T>;
    const work = (async () => {
      const body = await this.fetchWithRetries(url, req.headers, undefined, undefined, trace);
      const value = type === "json" ? parseJson(body, this.options.name) : body;
      if (ttl > 0) await this.cache.set(cacheKey, body, ttl);
      return value as T;
    })().finally(() => this.inFlight.delete(cacheKey));
    this.inFlight.set(cacheKey, work);
    return work;
  }

  private async fetchWithRetries(
    url: string,
    headers: Record<string, string> = {},
    init: RequestInit = {},
    retryLimit?: number,
    trace?: TraceScope,
  ): Promise<string> {
    const name = this.options.name;
    if (Date.now() < this.breaker.openUntil) {
      throw new GatewayError(503, `${name} is temporarily unavailable after repeated failures; try again shortly`, {
        "Retry-After": String(Math.ceil((this.breaker.openUntil - Date.now()) / 1000)),
      });
    }
    const retries = retryLimit ?? this.options.retries ?? 2;
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    let last: GatewayError | undefined;
    // Whether the last attempt was answered 429.
    let limited = false;
    for (let attempt = 0; attempt <= retries; attempt++) {
      const span = trace && httpClientSpan(trace, init.method ?? "GET", url, name, attempt);
      const sent: Record<string, string> = {
        "user-agent": USER_AGENT,
        accept: "application/json, application/xml;q=0.9, */*;q=0.8",
        ...headers,
      };
      if (span) sent.traceparent = span.traceparent;
      let res: Response;
      try {
        this.hits += 1;
        res = await fetch(url, { ...init, headers: sent, signal: new CallStop(timeoutMs).signal, redirect: "follow" });
      } catch (err) {
        const timedOut = (err as Error).name === "TimeoutError";
        span?.fail(timedOut ? "timeout" : "connection_failed").end();
        last = timedOut
          ? new GatewayError(504, `${name} did not answer within ${timeoutMs / 1000} s`)
          : new GatewayError(502, `${name} could not be reached`);
        limited = false;
        if (attempt < retries) await sleep(backoff(attempt));
        continue;
      }
      if (span) httpClientStatus(span, res.status);
      if (res.ok) {
        this.breaker.failures = 0;
        if (!span) return await readCappedText(res, name);
        // The span covers the body too: a body cut off or too large is this request's failure.
        try {
          return await readCappedText(res, name);
        } catch (err) {
          span.fail(err instanceof GatewayError ? String(err.status) : "body");
          throw err;
        } finally {
          span.end();
        }
      }
      span?.end();
      if (res.status === 404) {
        throw new GatewayError(404, `${name} has no such item`);
      }
      const failure = await upstreamFailure(name, res);
      if (res.status !== 429 && res.status < 500) throw failure;
      last = failure;
      limited = res.status === 429;
      if (attempt < retries)
        await sleep(Math.min(5_000, retryAfterMs(res.headers.get("retry-after")) ?? backoff(attempt)));
    }
    // A 429 is the service pacing the gateway (often one key's burst), not the service failing: the
    // caller gets it (503 with its Retry-After), but it opens no circuit, which would refuse every key.
    if (limited && last) throw last;
    this.breaker.failures += 1;
    const breaker = this.options.breaker ?? { failures: 5, cooldownMs: 30_000 };
    if (this.breaker.failures >= breaker.failures) this.breaker.openUntil = Date.now() + breaker.cooldownMs;
    throw last ?? new GatewayError(502, `${name} failed`);
  }
}

/** A client's calls under one trace (UpstreamClient.traced): made per traced request, so untraced ones pay nothing. */
class TracedUpstream implements Upstream {
  constructor(
    private readonly client: UpstreamClient,
    private readonly trace: TraceScope,
  ) {}

  get name(): string {
    return this.client.name;
  }

  url(req: UpstreamRequest): string {
    return this.client.url(req);
  }

  get<T>(req: UpstreamRequest): Promise<T> {
    return this.client.get<T>(req, this.trace);
  }

  post<T>(req: UpstreamRequest & { body: unknown }): Promise<T> {
    return this.client.post<T>(req, this.trace);
  }
}

/**
 * Paths are built from callers' ids; a "." or ".." segment (also percent-encoded) would be resolved
 * away by the URL parser and reach another endpoint of the service with the gateway's credentials.
 * Only the path is resolved so (where a backslash separates segments as "/" does in an https URL):
 * dots in a query or fragment (an archived URL's ?a=/../) stay as sent.
 */
export function hasDotSegment(path: string): boolean {
  const [resolved = ""] = path.split(/[?#]/, 1);
  return resolved.split(/[/\\]/).some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

// Full jitter: up to 200 ms, 400 ms, … so retries from many clients do not line up.
function backoff(attempt: number): number {
  return Math.random() * 200 * 2 ** attempt;
}

function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function parseJson(body: string, name: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new GatewayError(502, `${name} answered with something that is not JSON`);
  }
}
