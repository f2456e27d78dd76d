import { GatewayError } from "../errors.ts";

/**
 * Sent with every response that carries a third party's bytes. The API and the portal may share an
 * origin, so without these an upstream's HTML would run as the portal (calling /v1 with the victim's
 * console key, framing /keys, driving /admin). `sandbox` gives the document an opaque origin and no
 * scripts; nosniff stops a text/plain body being run as script; CORP keeps other sites from embedding it.
 */
export const UNTRUSTED_RESPONSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": "sandbox; default-src 'none'",
  "x-content-type-options": "nosniff",
  "cross-origin-resource-policy": "same-origin",
});

/** The only upstream headers passed on: what a client needs to read and cache the body, nothing it would obey. */
const KEPT_UPSTREAM_HEADERS = new Set([
  "content-type",
  "content-length",
  "cache-control",
  "etag",
  "last-modified",
  "content-language",
]);

/**
 * A screenshot's page renders in its own origin inside a throwaway browser context, so it also keeps
 * the CORS answers its web fonts and cross-origin fetches need to render as they would for a visitor.
 */
const KEPT_PAGE_HEADERS = new Set([
  ...KEPT_UPSTREAM_HEADERS,
  "access-control-allow-origin",
  "access-control-allow-credentials",
  "access-control-expose-headers",
]);

function pick(headers: Readonly<Record<string, string>>, allowed: ReadonlySet<string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (allowed.has(lower)) kept[lower] = value;
  }
  return kept;
}

/** An upstream's headers reduced to the allowlist (names lower-cased). */
export const keptUpstreamHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> =>
  pick(headers, KEPT_UPSTREAM_HEADERS);

/** The headers a screenshot's page is given: the allowlist plus CORS, never ones a browser would obey (Link, Refresh, Service-Worker-Allowed). */
export const keptPageHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> =>
  pick(headers, KEPT_PAGE_HEADERS);

/**
 * Browsers fetch a service worker's script with `Service-Worker: script`; a worker registered from
 * upstream bytes on our origin would outlive the visit and see every later request, so never serve one.
 */
export function refuseServiceWorkerScript(serviceWorkerHeader: string | undefined): void {
  if (serviceWorkerHeader?.trim().toLowerCase() === "script") {
    throw new GatewayError(403, "third-party content is never served as a service worker script");
  }
}
