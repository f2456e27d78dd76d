import { randomUUID } from "node:crypto";
import { GatewayError } from "../../errors.ts";
import { CHAT_PROVIDER_NAMES, DEFAULT_PROVIDER, PROVIDERS } from "../../upstream/llm-catalogue.ts";

/**
 * Models on the compatible surfaces are named `provider/model` (a bare model id goes to the provider
 * whose defaults list it, else to the default provider). A name whose first segment is no provider
 * and which no provider lists is a 400: sent on, a typo such as `opena/gpt-4o` would reach the default
 * provider as a model it has never heard of. A model id that itself has a slash is named behind its
 * provider (`groq/meta-llama/llama-4-scout`).
 */
export function splitModel(model: string): { provider: string; model: string } {
  const slash = model.indexOf("/");
  if (slash > 0 && CHAT_PROVIDER_NAMES.includes(model.slice(0, slash)))
    return { provider: model.slice(0, slash), model: model.slice(slash + 1) };
  const owner = PROVIDERS.find((p) => p.defaultModel === model || Object.values(p.tiers).includes(model));
  if (!owner && slash >= 0)
    throw new GatewayError(
      400,
      `unknown provider '${model.slice(0, slash)}' in model '${model}': name a model as provider/model with one of ${CHAT_PROVIDER_NAMES.join(", ")} (a model id with a slash goes behind its provider, e.g. groq/meta-llama/llama-4-scout-17b-16e-instruct)`,
    );
  return { provider: owner?.name ?? DEFAULT_PROVIDER, model };
}

/** The id of an answer the gateway keeps nowhere (`chatcmpl-…`, `msg_…`): the request id's, so logs and answers match. */
export function requestAnswerId(prefix: string, requestId: string): string {
  return `${prefix}${requestId.replace(/[^\w]/g, "")}`;
}

/**
 * The id of an answer the gateway stores and reads back by id (`resp_…`): random, never from the
 * caller's X-Request-Id, which any key may send, so no caller can choose an id another already holds.
 */
export function storedAnswerId(prefix: string): string {
  return `${prefix}${randomUUID().replaceAll("-", "")}`;
}
