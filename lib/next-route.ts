import { notFound } from "next/navigation";
import { isGatewayRequest } from "./front-door.ts";
import { handleWithGateway } from "./instance.ts";

/**
 * `next dev` and serverless hosts reach the gateway through one catch-all route: the paths the
 * front door gives the API go to the Hono app, anything else is the portal's 404 page.
 * (`npm start` runs server.ts, which makes the same choice before Next sees the request.)
 */
async function handleThroughNext(request: Request): Promise<Response> {
  const { pathname, search } = new URL(request.url);
  if (!isGatewayRequest(pathname + search, request.headers.get("accept") ?? undefined)) notFound();
  return handleWithGateway(request);
}

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
