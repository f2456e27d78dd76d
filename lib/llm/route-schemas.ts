import { z } from "@hono/zod-openapi";
import { ErrorSchema, jsonResponse } from "../gateway/http/schemas.ts";

/** Schemas more than one LLM route module uses: a named component is declared once. */
export const Message = z
  .object({ role: z.enum(["user", "assistant", "system"]), content: z.string() })
  .openapi("Message");
export const Budget = z.enum(["cheap", "balanced", "premium"]);

const UsageSchema = z
  .object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() })
  .openapi("Usage");
export const Completion = z
  .object({ content: z.string(), model: z.string(), provider: z.string(), usage: UsageSchema })
  .openapi("CompletionResponse");
export const providerErrors = {
  502: jsonResponse(ErrorSchema, "The provider failed or rejected the gateway's credentials"),
  503: jsonResponse(ErrorSchema, "The provider is not configured, or is rate limiting the gateway"),
  504: jsonResponse(ErrorSchema, "The provider did not answer in time"),
};
