import type { Middleware } from "openapi-fetch";
import { createGatewayClient, type GatewayClient } from "../client/index.ts";

/**
 * How the consoles call /v1: same-origin with the portal session (docs/notes/session-bridge.md), never
 * with a key, and every failure turned into one ApiError the console chrome knows how to show. JSON
 * calls go through the typed client (lib/client, generated from /openapi.json); `v1Fetch` is left for
 * what it cannot type: a URL only known at run time (a chart spec's data URL).
 */

export type ApiErrorKind = "signed-out" | "rate-limited" | "not-configured" | "not-available" | "invalid" | "failed";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds until a retry can succeed (429), from retry_after or Retry-After. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }

  get kind(): ApiErrorKind {
    if (this.status === 401) return "signed-out";
    if (this.status === 429) return "rate-limited";
    if (this.status === 503) return "not-configured";
    if (this.status === 404 || this.status === 405 || this.status === 501) return "not-available";
    if (this.status === 400 || this.status === 422) return "invalid";
    return "failed";
  }
}

type ErrorBody = { error?: string | { code?: string; message?: string; retry_after?: number } };

/** Reads either error form (A: {error: string}, B: {error: {code, message, retry_after}}) into an ApiError. */
export async function errorFrom(res: Response): Promise<ApiError> {
  let body: ErrorBody = {};
  try {
    body = (await res.json()) as ErrorBody;
  } catch {
    // A non-JSON error (a proxy's HTML page, an empty 404): the status alone says what happened.
  }
  const e = body.error;
  const message = typeof e === "string" ? e : (e?.message ?? (res.statusText || `HTTP ${res.status}`));
  const header = Number(res.headers.get("retry-after"));
  const retryAfter =
    typeof e === "object" && typeof e.retry_after === "number"
      ? e.retry_after
      : Number.isFinite(header) && header > 0
        ? header
        : null;
  return new ApiError(res.status, message, res.status === 429 ? retryAfter : null);
}

/** A failed answer thrown as its ApiError before openapi-fetch reads the body, so callers see only 2xx. */
const throwApiErrors: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw await errorFrom(response);
  },
};

const clients = new Map<string, GatewayClient>();

/**
 * The consoles' typed client: the page's origin with its session cookie, never a key. A failed call
 * rejects with an ApiError (as v1Fetch does), so React Query code reads errors as before. Made on
 * first use, in the browser (the origin is the page's; a console module also loads on the server).
 */
export function consoleClient(): GatewayClient {
  const origin = globalThis.location.origin;
  let client = clients.get(origin);
  if (!client) {
    // fetch looked up per call rather than kept, as the page (or a test) may wrap it later.
    client = createGatewayClient({ baseUrl: origin, credentials: "same-origin", fetch: (r) => globalThis.fetch(r) });
    client.use(throwApiErrors);
    clients.set(origin, client);
  }
  return client;
}

/**
 * The body of a consoleClient() call. Only a 2xx answer gets this far (others were thrown as ApiError),
 * so `data` is there: `const models = await dataOf(consoleClient().GET("/v1/llm/models"))`.
 */
export async function dataOf<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  return (await call).data as T;
}

/** fetch of a /v1 path with the session cookie; resolves only on 2xx, otherwise throws ApiError. */
export async function v1Fetch(path: string, init: RequestInit = {}): Promise<Response> {
  if (!path.startsWith("/v1/")) throw new Error(`consoles only call /v1 paths, not ${path}`);
  const headers = new Headers(init.headers);
  if (init.body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  const res = await fetch(path, { ...init, headers, credentials: "same-origin" });
  if (!res.ok) throw await errorFrom(res);
  return res;
}

export async function v1Json<T>(path: string, init?: RequestInit): Promise<T> {
  return (await (await v1Fetch(path, init)).json()) as T;
}

/** The sign-in link that brings the visitor back to the page they were on. */
export function signInHref(path: string): string {
  return `/api/auth/signin?callbackUrl=${encodeURIComponent(path)}`;
}

/** React Query retries: never for answers a retry cannot change (auth, limits, missing, invalid). */
export function shouldRetry(failures: number, error: unknown): boolean {
  return (
    !(error instanceof ApiError && error.status < 500) &&
    !(error instanceof ApiError && error.status === 503) &&
    failures < 2
  );
}
