import { GatewayError } from "../errors.ts";
import { CallStop } from "./call-stop.ts";
import { readCappedText, readTextPrefix } from "./capped-body.ts";

export const USER_AGENT = "UnifiedAPIGateway/1.0 (+https://github.com/unified-api-gateway)";

/** Calls a third-party API; network failures and timeouts become 502/504 naming the service. */
export async function callUpstream(
  service: string,
  url: string,
  init: RequestInit = {},
  timeoutMs = 10_000,
): Promise<Response> {
  try {
    return await fetch(url, {
      ...init,
      headers: { "user-agent": USER_AGENT, ...(init.headers as Record<string, string> | undefined) },
      signal: new CallStop(timeoutMs).signal,
    });
  } catch (err) {
    if ((err as Error).name === "TimeoutError")
      throw new GatewayError(504, `${service} did not answer within ${timeoutMs / 1000} s`);
    throw new GatewayError(502, `${service} could not be reached`);
  }
}

/** What an upstream answered, kept beside the status we answer with: the router's retries decide on it. */
export type UpstreamAnswer = {
  status: number;
  /** Its Retry-After header as sent (seconds or an HTTP date). */
  retryAfter?: string;
  /** Its retry-after-ms header (OpenAI, Azure), finer than Retry-After. */
  retryAfterMs?: string;
};

/** A gateway error made from an upstream's non-2xx answer, which it keeps (`upstream`). */
export class UpstreamStatusError extends GatewayError {
  constructor(
    status: number,
    message: string,
    headers: Record<string, string>,
    readonly upstream: UpstreamAnswer,
  ) {
    super(status, message, headers);
  }
}

/**
 * What an upstream's HTTP status means to our caller: its credential problems and outages are ours
 * (502), its rate limit is a temporary 503 carrying its Retry-After, its other 4xx are the caller's (400).
 */
export function upstreamStatusError(
  service: string,
  status: number,
  retryAfter: string | null | undefined,
  detail: string,
  retryAfterMs?: string | null,
): GatewayError {
  const upstream: UpstreamAnswer = { status };
  if (retryAfter) upstream.retryAfter = retryAfter;
  if (retryAfterMs) upstream.retryAfterMs = retryAfterMs;
  if (status === 401 || status === 403)
    return new UpstreamStatusError(502, `${service} rejected the gateway's credentials`, {}, upstream);
  if (status === 429) {
    return new UpstreamStatusError(
      503,
      `${service} is rate limiting the gateway; try again later`,
      retryAfter ? { "Retry-After": retryAfter } : {},
      upstream,
    );
  }
  if (status >= 400 && status < 500)
    return new UpstreamStatusError(400, `${service} refused the request (${status}): ${detail}`, {}, upstream);
  return new UpstreamStatusError(502, `${service} failed (${status})`, {}, upstream);
}

/** Turns a non-2xx upstream answer into the gateway error a client can act on. */
export async function upstreamFailure(service: string, res: Response): Promise<GatewayError> {
  const detail = (await readTextPrefix(res, 1024)).slice(0, 200);
  return upstreamStatusError(service, res.status, res.headers.get("retry-after"), detail);
}

export async function upstreamJson<T>(
  service: string,
  url: string,
  init: RequestInit = {},
  timeoutMs = 10_000,
): Promise<T> {
  const res = await callUpstream(service, url, init, timeoutMs);
  if (!res.ok) throw await upstreamFailure(service, res);
  const text = await readCappedText(res, service);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new GatewayError(502, `${service} answered with something that is not JSON`);
  }
}
