import { isGatewayRequest } from "./front-door.ts";
import { handleWithGateway } from "./instance.ts";

/**
 * The catch-all route: the paths the front door gives the API go to the Hono app (under `next dev`
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

const NOT_FOUND_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>404: This page could not be found</title></head>
<body style="font-family: system-ui, sans-serif; display: grid; place-items: center; min-height: 90vh; margin: 0">
<main style="text-align: center"><h1>404</h1><p>This page could not be found.</p><p><a href="/">Back to the portal</a></p></main>
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
