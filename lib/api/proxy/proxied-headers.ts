import { keptUpstreamHeaders, UNTRUSTED_RESPONSE_HEADERS } from "../../upstream/untrusted-response.ts";

/**
 * The headers an upstream's body is answered with: its allowlisted headers, the untrusted-content
 * headers, the client's limit headers, the URL finally fetched and the length of the bytes as
 * received. The upstream's own Content-Length is dropped: it may count the encoded body, and the
 * length sent is the one of the bytes passed on.
 */
export function proxiedHeaders(
  upstream: Readonly<Record<string, string>>,
  limits: Readonly<Record<string, string>>,
  finalUrl: string,
  length: number,
): Record<string, string> {
  const { "content-length": _upstreamLength, ...kept } = keptUpstreamHeaders(upstream);
  return {
    ...kept,
    ...UNTRUSTED_RESPONSE_HEADERS,
    ...limits,
    "Content-Length": String(length),
    "x-proxy-final-url": finalUrl,
  };
}
