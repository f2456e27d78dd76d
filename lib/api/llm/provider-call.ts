import { GatewayError } from "../../errors.ts";
import { readCappedText, readTextPrefix } from "../../upstream/capped-body.ts";
import { upstreamStatusError, USER_AGENT } from "../../upstream/http.ts";
import type { ProviderEntry } from "../../upstream/llm-catalogue.ts";
import { providerError } from "./errors.ts";
import { providerApiKey, providerBaseURL } from "./models.ts";

/** The Messages API version the gateway speaks to Anthropic (its wire has not changed since). */
export const ANTHROPIC_VERSION = "2023-06-01";

/** A refusal's detail as the AI SDK reads it: OpenAI's `{error: {message}}`, else the status text. */
export async function refusalDetail(res: Response): Promise<string> {
  const text = await readTextPrefix(res, 64 * 1024);
  let message: unknown;
  try {
    message = (JSON.parse(text) as { error?: { message?: unknown } } | null)?.error?.message;
  } catch {
    message = undefined;
  }
  return (typeof message === "string" ? message : res.statusText).slice(0, 300);
}

/** The endpoint a provider's chat lives at: Anthropic's Messages, or everyone else's Chat Completions. */
const chatPath = (entry: ProviderEntry) => (entry.wire === "anthropic" ? "/messages" : "/chat/completions");

function headers(entry: ProviderEntry): Record<string, string> {
  const auth: Record<string, string> =
    entry.wire === "anthropic"
      ? { "x-api-key": providerApiKey(entry), "anthropic-version": ANTHROPIC_VERSION }
      : { authorization: `Bearer ${providerApiKey(entry)}` };
  return { ...auth, "content-type": "application/json", "user-agent": USER_AGENT };
}

/**
 * POSTs a chat body to the provider's chat endpoint. Unreachable → 502, timed out or aborted → the
 * provider error it means, and a refusal → the gateway error for its status, carrying the provider's
 * own message; a response is returned only when it succeeded.
 */
export async function postChat(
  entry: ProviderEntry,
  body: unknown,
  signal: AbortSignal,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(`${providerBaseURL(entry)}${chatPath(entry)}`, {
      method: "POST",
      headers: { ...headers(entry), ...extraHeaders },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") throw providerError(entry.name, err);
    throw new GatewayError(502, `${entry.name} could not be reached`);
  }
  if (!res.ok || !res.body)
    throw upstreamStatusError(entry.name, res.status, res.headers.get("retry-after"), await refusalDetail(res));
  return res;
}

/** A whole (non-streamed) answer as JSON, read under the upstream byte cap; anything else is a 502. */
export async function readAnswer<T>(entry: ProviderEntry, res: Response): Promise<T> {
  const text = await readCappedText(res, entry.name);
  try {
    const json = JSON.parse(text) as unknown;
    if (json && typeof json === "object") return json as T;
  } catch {
    // answered below
  }
  throw new GatewayError(502, `${entry.name} answered with something other than JSON`);
}
