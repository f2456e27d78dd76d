import { handleWithGateway } from "./instance.ts";

/** Every HTTP method of a Next route handler, answered by the gateway's Hono app. */
export const nextRouteHandlers = {
  GET: handleWithGateway,
  HEAD: handleWithGateway,
  POST: handleWithGateway,
  PUT: handleWithGateway,
  PATCH: handleWithGateway,
  DELETE: handleWithGateway,
  OPTIONS: handleWithGateway,
};
