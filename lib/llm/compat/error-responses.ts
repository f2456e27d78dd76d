import { z } from "@hono/zod-openapi";
import { jsonResponse } from "../../gateway/http/schemas.ts";
import { AnthropicErrorSchema } from "../wire/anthropic/index.ts";
import { OpenAIErrorSchema } from "../wire/openai-chat.ts";

const DESCRIPTIONS = {
  400: "Invalid parameters",
  401: "Missing, invalid, revoked or expired API key",
  403: "The key's scopes do not include this area, or its model rules refuse the model",
  404: "Not found",
  429: "A per-key limit was reached",
  502: "The provider failed or its answer could not be read",
  503: "The provider is not configured or is unavailable",
  504: "The provider did not answer in time",
} as const;

type Status = keyof typeof DESCRIPTIONS;
type Keyed = 400 | 401 | 403 | 429;

function errorResponses<T extends z.ZodType, S extends Status>(schema: T, statuses: S[]) {
  return Object.fromEntries(statuses.map((s) => [s, jsonResponse(schema, DESCRIPTIONS[s])])) as Record<
    S | Keyed,
    ReturnType<typeof jsonResponse<T>>
  >;
}

/**
 * The error answers of an OpenAI-compatible route in the document, in the shape they really have
 * (the shared keyedErrors say `{error: string}`, which these paths never answer). A route lists the
 * statuses it can give: the keyed ones always, 404 and the provider's 502/503/504 where they apply.
 */
export const openAIErrorResponses = <S extends Status>(...statuses: S[]) =>
  errorResponses<typeof OpenAIErrorSchema, S | Keyed>(OpenAIErrorSchema, [400, 401, 403, 429, ...statuses]);

/** The same for /v1/messages, in Anthropic's shape. */
export const anthropicErrorResponses = <S extends Status>(...statuses: S[]) =>
  errorResponses<typeof AnthropicErrorSchema, S | Keyed>(AnthropicErrorSchema, [400, 401, 403, 429, ...statuses]);
