import { Agent, request, type Dispatcher } from "undici";
import { GatewayError } from "../../errors.ts";
import type { CallStop } from "../../upstream/call-stop.ts";
import { collectCapped, upstreamMaxBytes } from "../../upstream/capped-body.ts";
import { upstreamStatusError, USER_AGENT } from "../../upstream/http.ts";
import type { ProviderEntry } from "../../upstream/llm-catalogue.ts";
import { providerError } from "../errors.ts";
import { providerApiKey, providerBaseURL } from "../models.ts";

/** The Messages API version the gateway speaks to Anthropic (its wire has not changed since). */
export const ANTHROPIC_VERSION = "2023-06-01";

/** A provider's answer body: Node's readable of Buffers (async-iterable), read once. */
export type ProviderBody = Dispatcher.ResponseData["body"];

// Every provider call goes over one keep-alive pool (undici's own request API, not fetch: no Request,
// Headers or web stream objects per call), so a completion costs one request on a warm connection.
const pool = new Agent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 600_000, connections: 256 });

/** A refusal's detail: OpenAI's and Anthropic's `{error: {message}}`, else the status. Reads at most 64 kB. */
async function refusalDetail(status: number, body: ProviderBody): Promise<string> {
  let text = "";
  try {
    for await (const chunk of body) {
      text += chunk.toString();
      if (text.length >= 64 * 1024) break;
    }
  } catch {
    // A body cut short says no more than its status.
  } finally {
    body.destroy();
  }
  let message: unknown;
  try {
    message = (JSON.parse(text) as { error?: { message?: unknown } } | null)?.error?.message;
  } catch {
    message = undefined;
  }
  return (typeof message === "string" ? message : `status ${status}`).slice(0, 300);
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

/** POSTs a chat body to the provider's chat endpoint, as `postToProvider` does. */
export function postChat(
  entry: ProviderEntry,
  body: unknown,
  stop: CallStop,
  extraHeaders: Record<string, string> = {},
): Promise<ProviderBody> {
  return postToProvider(entry, chatPath(entry), body, stop, extraHeaders);
}

/**
 * POSTs a JSON body to an endpoint under the provider's API (`/chat/completions`, `/embeddings`).
 * Unreachable → 502, timed out or aborted → the provider error it means, and a refusal → the gateway
 * error for its status, carrying the provider's own message; a body is returned only when the call succeeded.
 */
export async function postToProvider(
  entry: ProviderEntry,
  path: string,
  body: unknown,
  stop: CallStop,
  extraHeaders: Record<string, string> = {},
): Promise<ProviderBody> {
  let res: Dispatcher.ResponseData;
  const sent = { ...headers(entry), ...extraHeaders };
  // Tracing on: the provider (or a proxy in front of it) can continue the attempt's trace.
  if (stop.traceparent !== undefined) sent.traceparent = stop.traceparent;
  try {
    res = await request(`${providerBaseURL(entry)}${path}`, {
      dispatcher: pool,
      method: "POST",
      headers: sent,
      body: JSON.stringify(body),
      signal: stop,
    });
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError" || stop.aborted)
      throw providerError(entry.name, stop.aborted ? (stop.reason ?? err) : err);
    throw new GatewayError(502, `${entry.name} could not be reached`);
  }
  if (res.statusCode < 200 || res.statusCode >= 300) {
    const retryAfter = res.headers["retry-after"];
    throw upstreamStatusError(
      entry.name,
      res.statusCode,
      Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      await refusalDetail(res.statusCode, res.body),
    );
  }
  return res.body;
}

/** A whole (non-streamed) answer as JSON, read under the upstream byte cap; anything else is a 502. */
export async function readAnswer<T>(entry: ProviderEntry, body: ProviderBody): Promise<T> {
  let bytes: Buffer;
  try {
    bytes = await collectCapped(body, entry.name, upstreamMaxBytes());
  } catch (err) {
    body.destroy();
    if (err instanceof GatewayError) throw err;
    throw providerError(entry.name, err);
  }
  try {
    const json = JSON.parse(bytes.toString("utf8")) as unknown;
    if (json && typeof json === "object") return json as T;
  } catch {
    // answered below
  }
  throw new GatewayError(502, `${entry.name} answered with something other than JSON`);
}
