import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { ErrorSchema, jsonResponse, RateLimitErrorSchema } from "../../gateway/http/schemas.ts";
import { Reply } from "../../gateway/pipeline/answer.ts";
import type { Call } from "../../gateway/pipeline/call.ts";
import { admitClient, clientAddressOf } from "../../gateway/pipeline/client-limit.ts";
import { route, type RouteDef } from "../../gateway/pipeline/route.ts";
import { perRuntime } from "../../gateway/runtime/per-runtime.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { safeFetch } from "../../upstream/safe-fetch.ts";
import { refuseServiceWorkerScript } from "../../upstream/untrusted-response.ts";
import { proxiedHeaders } from "./proxied-headers.ts";

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

async function proxy(c: Call, rawUrl: string | undefined): Promise<Reply> {
  const rt = c.runtime;
  const { proxy: settings } = rt.config;
  refuseServiceWorkerScript(c.header("service-worker"));
  // Keyless, so limited per client address instead (shared across instances when Redis is set).
  const address = clientAddressOf(rt, c.request.remoteAddress, c.header("x-forwarded-for"));
  const admission = await admitClient(rt, address, "proxy-ip", { minute: settings.ratePerMinute, concurrency: 20 });
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
    const body = new Uint8Array(res.body);
    return new Reply(res.status, body, proxiedHeaders(res.headers, admission.headers, res.url, body.byteLength));
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

export const proxyRoutes: RouteDef[] = [
  route(getProxy, (c, { query }) => proxy(c, query.url)),
  // Without a body (or a Content-Type) the body is validated as {}: the url is then the query's.
  route(postProxy, (c, { query, body }) => proxy(c, query.url ?? body.url)),
];
