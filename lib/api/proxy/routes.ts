import { z, type OpenAPIHono, type RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { admitClient } from "../../gateway/http/client-limit.ts";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { perRuntime } from "../../gateway/runtime/per-runtime.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { ErrorSchema, jsonResponse, RateLimitErrorSchema } from "../../gateway/http/schemas.ts";
import { safeFetch } from "../../upstream/safe-fetch.ts";
import {
  keptUpstreamHeaders,
  refuseServiceWorkerScript,
  UNTRUSTED_RESPONSE_HEADERS,
} from "../../upstream/untrusted-response.ts";

const USER_AGENT = "UnifiedAPIGateway/1.0 (fetch proxy)";

/** Upstream fetches in flight per runtime: the whole instance's cap, whatever the per-address limits allow. */
const inFlight = perRuntime(() => ({ active: 0 }));

function takeFetchSlot(rt: Runtime): () => void {
  const counter = inFlight(rt);
  if (counter.active >= rt.config.proxy.maxConcurrent) {
    throw new GatewayError(
      503,
      `the proxy is at its limit of ${rt.config.proxy.maxConcurrent} fetches at once; try again shortly`,
      { "Retry-After": "1" },
    );
  }
  counter.active += 1;
  const held = counter;
  return () => (held.active -= 1);
}

async function proxy(c: Context<GatewayEnv>, rawUrl: string | undefined): Promise<Response> {
  const rt = c.get("runtime");
  const { proxy: settings } = rt.config;
  refuseServiceWorkerScript(c.req.header("service-worker"));
  // Keyless, so limited per client address instead (shared across instances when Redis is set).
  const admission = await admitClient(c, "proxy-ip", { minute: settings.ratePerMinute, concurrency: 20 });
  let releaseSlot: (() => void) | undefined;
  try {
    releaseSlot = takeFetchSlot(rt);
    const res = await safeFetch(rawUrl, {
      maxBytes: settings.maxBytes,
      timeoutMs: settings.timeoutMs,
      maxRedirects: 5,
      userAgent: USER_AGENT,
      allowPrivate: settings.allowPrivate,
      extraCa: settings.extraCa,
      resolve: rt.resolveHost,
    });
    return new Response(new Uint8Array(res.body), {
      status: res.status,
      headers: {
        ...keptUpstreamHeaders(res.headers),
        ...UNTRUSTED_RESPONSE_HEADERS,
        ...admission.headers,
        "content-length": String(res.body.length),
        "x-proxy-final-url": res.url,
      },
    });
  } finally {
    releaseSlot?.();
    admission.release();
  }
}

const errors = {
  400: jsonResponse(ErrorSchema, "url missing, malformed or not HTTPS"),
  403: jsonResponse(
    ErrorSchema,
    "The host is private, loopback, link-local or otherwise not public, or the request is a service worker script fetch",
  ),
  429: jsonResponse(RateLimitErrorSchema, "Too many proxy requests from this client address"),
  502: jsonResponse(ErrorSchema, "The upstream request failed, redirected too often or sent too much"),
  503: jsonResponse(
    ErrorSchema,
    "The instance is already making PROXY_MAX_CONCURRENT fetches; Retry-After says when to try again",
  ),
  504: jsonResponse(ErrorSchema, "The upstream did not answer in time"),
};
const upstream = {
  description:
    "The upstream response, with its status and content type; only content-type, content-length, cache-control, etag, last-modified " +
    "and content-language are passed on, and every answer is sandboxed (Content-Security-Policy: sandbox, nosniff)",
  content: { "*/*": { schema: z.string().openapi({ format: "binary" }) } },
};
const UrlQuery = z.object({ url: z.string().optional().openapi({ description: "HTTPS URL to fetch" }) });

const getProxy = gatewayRoute("none", {
  method: "get",
  path: "/v1/proxy",
  summary: "Fetch a public HTTPS URL server-side",
  tags: ["Proxy"],
  request: { query: UrlQuery },
  responses: { 200: upstream, ...errors },
});

const handleGetProxy: RouteHandler<typeof getProxy, GatewayEnv> = (c) => proxy(c, c.req.valid("query").url) as never;

const postProxy = gatewayRoute("none", {
  method: "post",
  path: "/v1/proxy",
  summary: "Fetch a public HTTPS URL server-side (url in the query or the JSON body)",
  tags: ["Proxy"],
  request: {
    query: UrlQuery,
    body: { content: { "application/json": { schema: z.object({ url: z.string().optional() }) } }, required: false },
  },
  responses: { 200: upstream, ...errors },
});

const handlePostProxy: RouteHandler<typeof postProxy, GatewayEnv> = async (c) => {
  let bodyUrl: string | undefined;
  if (!c.req.valid("query").url && c.req.header("content-type")?.includes("application/json")) {
    const body = (await c.req.json().catch(() => {
      throw new GatewayError(400, 'body must be JSON like {"url": "https://..."}');
    })) as { url?: unknown };
    bodyUrl = typeof body?.url === "string" ? body.url : undefined;
  }
  return proxy(c, c.req.valid("query").url ?? bodyUrl) as never;
};

export function registerProxyRoutes(app: OpenAPIHono<GatewayEnv>): void {
  app.openapi(getProxy, handleGetProxy);
  app.openapi(postProxy, handlePostProxy);
}
