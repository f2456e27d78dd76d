/**
 * The origin the portal's code samples call: PUBLIC_BASE_URL when the operator set one, else the
 * origin this request reached as Next sees it (its Host, and X-Forwarded-Proto from a proxy in front),
 * else `fallback`. Only ever shown to the visitor who sent the request: Host is the caller's to choose,
 * so nothing that matters for security (sign-in links, allowed origins) is derived from it.
 */
export function sampleOrigin(
  publicBaseUrl: string | undefined,
  requestHeaders: Pick<Headers, "get">,
  fallback: string,
): string {
  if (publicBaseUrl) return publicBaseUrl.replace(/\/+$/, "");
  const host = requestHeaders.get("host");
  const forwarded = requestHeaders.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  const scheme = forwarded === "https" ? "https" : "http";
  if (!host) return fallback;
  try {
    const url = new URL(`${scheme}://${host}`);
    // A Host carrying a path, credentials, a query or a fragment is not an origin we could have served.
    const plain = url.pathname === "/" && !url.username && !url.password && !url.search && !url.hash;
    return plain ? url.origin : fallback;
  } catch {
    return fallback;
  }
}
