import { z } from "@hono/zod-openapi";
import { ErrorSchema, jsonResponse, RateLimitErrorSchema } from "../../../gateway/http/schemas.ts";

/** The errors of a utility open without a key: its input's, and the per-address limit's. */
export const openErrors = {
  400: jsonResponse(ErrorSchema, "Invalid parameters"),
  429: jsonResponse(RateLimitErrorSchema, "Too many requests from this client address"),
};

// Keyless routes take text up to this size: keywords cost ~2 s of CPU per 100 kB on one core.
const MAX_TEXT = 100_000;

/** A text field of a keyless utility. */
export const keylessText = (field: string) =>
  z.string().max(MAX_TEXT, `${field} is limited to ${MAX_TEXT.toLocaleString("en-US")} characters`);
