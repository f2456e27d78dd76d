const GATEWAY_PATHS = new Set(["/health", "/openapi.json", "/metrics", "/v1"]);
// The clinical content service (SPEC "Clinical", /api/...) lives in the gateway too; every other
// /api path (next-auth's /api/auth/...) stays with the portal.
const CONTENT_SERVICE_PATHS = new Set(["/api/conditions", "/api/search", "/api/stats"]);

/**
 * Whether server.ts hands a request to the API rather than the portal: /v1/*, the status paths,
 * the clinical content service, and `/` unless the client prefers HTML (a browser gets the portal
 * home, a program the JSON index).
 */
export function isGatewayRequest(url: string, accept: string | undefined): boolean {
  const q = url.indexOf("?");
  const pathname = q === -1 ? url : url.slice(0, q);
  if (pathname.startsWith("/v1/") || GATEWAY_PATHS.has(pathname)) return true;
  if (CONTENT_SERVICE_PATHS.has(pathname) || pathname.startsWith("/api/conditions/")) return true;
  if (pathname === "/") return !prefersHtml(accept);
  return false;
}

/** True when text/html is acceptable with at least the weight of JSON and of anything else. */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const weights = new Map<string, number>();
  for (const part of accept.split(",")) {
    const [type, ...params] = part.trim().toLowerCase().split(";");
    if (!type) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    weights.set(type, qParam ? Number(qParam.slice(2)) || 0 : 1);
  }
  const html = weights.get("text/html") ?? 0;
  if (html === 0) return false;
  return html >= (weights.get("application/json") ?? 0) && html >= (weights.get("*/*") ?? 0);
}
