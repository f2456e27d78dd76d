/**
 * The portal's Content-Security-Policy. Next's App Router bootstraps with inline scripts and Scalar and
 * Tailwind inject styles, hence 'unsafe-inline' (nonces would make every page dynamic); what the policy
 * buys is no script, frame, plugin or connection from another origin, and no framing of the portal
 * (clickjacking /keys or /admin). Images may come from any HTTPS host: AAC pictograms live on ARASAAC's.
 */
function contentSecurityPolicy(allowEval: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${allowEval ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

// Vega compiles chart expressions with new Function; only the page that draws charts gets eval.
const EVAL_PATHS = ["/console/datavis"];

export type PortalHeaderOptions = { production: boolean; publicBaseUrl: string | undefined };

const HSTS = "max-age=31536000; includeSubDomains";

/** Security headers for a portal page. Built from constants; cheap enough to call per request. */
export function portalSecurityHeaders(pathname: string, options: PortalHeaderOptions): Record<string, string> {
  // React's development build evaluates code for its debugging aids.
  const allowEval = !options.production || EVAL_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
  return {
    "content-security-policy": contentSecurityPolicy(allowEval),
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    // Only an HTTPS deployment may pin browsers to HTTPS; on plain HTTP it would lock visitors out.
    ...(options.publicBaseUrl?.startsWith("https://") ? { "strict-transport-security": HSTS } : {}),
  };
}
