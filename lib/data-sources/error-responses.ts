import { ErrorSchema, jsonResponse } from "../gateway/http/schemas.ts";

/** The errors a route that calls a data source documents: the data area's routes and the tools that wrap them. */
export const upstreamErrors = {
  404: jsonResponse(ErrorSchema, "The source has no such item"),
  502: jsonResponse(ErrorSchema, "The source failed"),
  503: jsonResponse(ErrorSchema, "The source is rate limiting us or temporarily unavailable"),
  504: jsonResponse(ErrorSchema, "The source did not answer in time"),
};
