import { NextResponse, type NextRequest } from "next/server";
import { prefersHtml } from "@/lib/prefers-html.ts";
import { portalSecurityHeaders } from "@/lib/portal/pages/security-headers.ts";

/**
 * Every portal response carries the portal's security headers (CSP with frame-ancestors 'none',
 * nosniff, Referrer-Policy, HSTS on HTTPS deployments); read at run time, so PUBLIC_BASE_URL set after
 * the build still counts. Under `next dev`, `/` is also the JSON service index for programs (as in server.ts).
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname === "/" && !prefersHtml(request.headers.get("accept") ?? undefined))
    return NextResponse.rewrite(new URL("/v1", request.url));
  const response = NextResponse.next();
  const headers = portalSecurityHeaders(pathname, {
    production: process.env.NODE_ENV === "production",
    publicBaseUrl: process.env.PUBLIC_BASE_URL,
  });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

// Not the API (its own answers carry their own headers) nor Next's immutable build assets.
export const config = { matcher: ["/((?!v1/|v1$|_next/static|_next/image|health$|openapi\\.json$|metrics$).*)"] };
