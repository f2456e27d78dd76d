import NextAuth from "next-auth";
import { prefersHtml } from "@/lib/prefers-html.ts";
import { getPortal } from "@/lib/portal/sign-in/auth.ts";
import { normalizeSignInAddress, signInEmailField } from "@/lib/portal/sign-in/address.ts";
import { CLIENT_ADDRESS_HEADER, type SignInRefusal } from "@/lib/portal/sign-in/limits.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// The options need the gateway's database, which opens asynchronously, so the handler is built per call.
async function handle(request: Request, context: RouteContext): Promise<Response> {
  const portal = await getPortal();
  // next-auth takes the action and provider from these segments (later ones are ignored), so they decide.
  const [action, provider] = (await context.params).nextauth;
  if (request.method === "POST" && action === "signin" && provider === "email") {
    const email = await signInEmailField(request);
    // Counted as the address the link would go to; one next-auth refuses (none, malformed) gets no link.
    const address = email === null ? null : normalizeSignInAddress(email);
    if (address !== null) {
      const refusal = portal.signInLimiter.admit(address, request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown");
      if (refusal) return refused(refusal, request.headers.get("accept"));
    }
  }
  return NextAuth(request as never, context as never, portal.authOptions) as Promise<Response>;
}

/** 429: a page for the sign-in form's browser, Form B for programs. */
function refused({ message, retryAfterSeconds }: SignInRefusal, accept: string | null): Response {
  const headers = { "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" };
  if (!prefersHtml(accept ?? undefined)) {
    return Response.json(
      { error: { code: "rate_limit_exceeded", message, retry_after: retryAfterSeconds } },
      { status: 429, headers },
    );
  }
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many sign-in links</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">
<h1>Too many sign-in links</h1><p>${message}</p><p>You can ask for another link in about ${minutes} minute${minutes === 1 ? "" : "s"}.</p>
<p><a href="/api/auth/signin">Back to sign-in</a></p></body></html>`;
  return new Response(html, { status: 429, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
}

export { handle as GET, handle as POST };
