import { isGatewayRequest } from "./front-door.ts";
import { handleWithGateway } from "./instance.ts";

/**
 * The catch-all route: the paths the front door gives the API go to the gateway (its Fetch adapter, under `next dev`
 * and serverless hosts; `npm start`'s server.ts sends them past Next), anything no page claims is a
 * 404 page. (notFound() in a route handler answers 404 with an empty body, a blank page in a browser.)
 */
async function handleThroughNext(request: Request): Promise<Response> {
  const { pathname, search } = new URL(request.url);
  if (isGatewayRequest(pathname + search, request.headers.get("accept") ?? undefined))
    return handleWithGateway(request);
  return new Response(request.method === "HEAD" ? null : NOT_FOUND_PAGE, {
    status: 404,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

// The words and look of app/not-found.tsx (Tailwind's slate and indigo, light and dark), written out
// because a route handler cannot render the portal's layout.
const NOT_FOUND_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Page not found · Unified API Gateway</title>
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<style>
:root { color-scheme: light dark; --fg: #0f172a; --muted: #475569; --accent: #4338ca; --label: #4338ca; --line: #cbd5e1; }
@media (prefers-color-scheme: dark) { :root { --fg: #f1f5f9; --muted: #94a3b8; --label: #a5b4fc; --line: #334155; } body { background: #020617; } }
body { margin: 0; font-family: ui-sans-serif, system-ui, sans-serif; color: var(--fg); -webkit-font-smoothing: antialiased; }
main { max-width: 64rem; margin: 0 auto; padding: 4rem 1.5rem; }
.label { margin: 0; font-size: .875rem; font-weight: 500; letter-spacing: .025em; text-transform: uppercase; color: var(--label); }
h1 { margin: .5rem 0 0; font-size: 2.25rem; line-height: 2.5rem; font-weight: 700; letter-spacing: -.025em; }
.lead { margin: 1rem 0 0; max-width: 42rem; font-size: 1.125rem; line-height: 1.75rem; color: var(--muted); }
nav { margin-top: 2rem; display: flex; flex-wrap: wrap; gap: .75rem; }
nav a { border-radius: .5rem; padding: .5rem 1rem; font-weight: 500; text-decoration: none; color: inherit; border: 1px solid var(--line); }
nav a.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
</style></head>
<body><main><p class="label">404</p><h1>This page could not be found</h1>
<p class="lead">The address may be mistyped, or the page may have moved. API endpoints are listed in the reference.</p>
<nav aria-label="Where next"><a class="primary" href="/">Portal home</a><a href="/docs">API reference</a></nav></main>
</body></html>`;

/** Every HTTP method of the catch-all route handler. */
export const nextRouteHandlers = {
  GET: handleThroughNext,
  HEAD: handleThroughNext,
  POST: handleThroughNext,
  PUT: handleThroughNext,
  PATCH: handleThroughNext,
  DELETE: handleThroughNext,
  OPTIONS: handleThroughNext,
};
