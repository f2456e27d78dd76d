import { z } from "@hono/zod-openapi";

/** Form A error body, used by every 4xx/5xx except 429. */
export const ErrorSchema = z.object({ error: z.string() }).openapi("Error");

/** Form B error body, used by 429. */
export const RateLimitErrorSchema = z
  .object({
    error: z.object({ code: z.literal("rate_limit_exceeded"), message: z.string(), retry_after: z.number().int() }),
  })
  .openapi("RateLimitError");

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

/** The error responses every keyed route can give, so each route's contract lists them. */
export const keyedErrors = {
  400: json(ErrorSchema, "Invalid parameters"),
  401: json(ErrorSchema, "Missing, invalid, revoked or expired API key"),
  403: json(ErrorSchema, "The key's scopes do not include this area"),
  429: json(RateLimitErrorSchema, "A per-key limit was reached"),
};

/** A required JSON request body with this schema (validated, typed, and documented). */
export const jsonRequest = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});

export { json as jsonResponse };

/**
 * A query value sent blank (`?limit=`, a form field left empty) counts as not sent, so the schema's
 * default applies: zod alone would coerce "" to 0 or refuse it as an unknown option.
 */
export const blankAsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema);
