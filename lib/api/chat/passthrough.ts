import { createParser } from "eventsource-parser";
import { GatewayError } from "../../errors.ts";
import { cappedFetch, tooLarge, upstreamMaxBytes } from "../../upstream/capped-body.ts";
import { upstreamStatusError, USER_AGENT } from "../../upstream/http.ts";
import type { ProviderEntry } from "../../upstream/llm-catalogue.ts";
import type { Usage } from "../llm/chat-types.ts";
import type { StreamOutcome } from "../llm/chat.ts";
import { providerError } from "../llm/errors.ts";
import { providerApiKey, providerBaseURL } from "../llm/models.ts";
import { refusalDetail } from "../llm/openai-stream.ts";

type Body = Record<string, unknown>;
type WireUsage = { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };

/**
 * The client's Chat Completions body as the provider takes it: every field the client sent (tools,
 * tool_choice, response_format, stop, seed, n, logprobs…, and any the gateway does not know), with
 * the provider's own model id. Providers other than OpenAI itself get `developer` messages as
 * `system` and `max_tokens` for `max_completion_tokens`, which not all of them read.
 */
export function upstreamBody(entry: ProviderEntry, body: Body, modelId: string, stream: boolean): Body {
  const out: Body = { ...body, model: modelId };
  if (entry.wire !== "openai") {
    out.messages = (body.messages as Body[]).map((m) => (m.role === "developer" ? { ...m, role: "system" } : m));
    if (out.max_completion_tokens !== undefined && out.max_tokens === undefined) {
      out.max_tokens = out.max_completion_tokens;
      delete out.max_completion_tokens;
    }
  }
  // The gateway meters every stream, so it always asks for the usage chunk (and drops it unless the client asked).
  if (stream) out.stream_options = { ...(body.stream_options as Body | undefined), include_usage: true };
  return out;
}

export const usageFrom = (u: WireUsage | undefined): Usage => {
  const prompt = u?.prompt_tokens ?? 0;
  const completion = u?.completion_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: u?.total_tokens ?? prompt + completion };
};

async function post(entry: ProviderEntry, body: Body, signal: AbortSignal, capped: boolean): Promise<Response> {
  let res: Response;
  try {
    res = await (capped ? cappedFetch(entry.name) : fetch)(`${providerBaseURL(entry)}/chat/completions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${providerApiKey(entry)}`,
        "content-type": "application/json",
        "user-agent": USER_AGENT,
      },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    const name = (err as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") throw providerError(entry.name, err);
    throw new GatewayError(502, `${entry.name} could not be reached`);
  }
  if (!res.ok)
    throw upstreamStatusError(entry.name, res.status, res.headers.get("retry-after"), await refusalDetail(res));
  return res;
}

/** One completion from an OpenAI-wire provider, answered as the provider answered it (model named provider/model). */
export async function relayCompletion(
  entry: ProviderEntry,
  body: Body,
  modelId: string,
  name: string,
  signal: AbortSignal,
): Promise<{ json: Body; usage: Usage; model: string }> {
  const res = await post(entry, upstreamBody(entry, body, modelId, false), signal, true);
  let json: Body;
  try {
    json = (await res.json()) as Body;
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    throw new GatewayError(502, `${entry.name} answered with something other than JSON`);
  }
  const model = typeof json.model === "string" ? json.model : modelId;
  return { json: { ...json, model: name }, usage: usageFrom(json.usage as WireUsage | undefined), model };
}

/**
 * A streamed completion from an OpenAI-wire provider, relayed event by event: every chunk as the
 * provider sent it (tool-call deltas with their index, id, name and argument fragments included), with
 * the model named provider/model, and the usage chunk only when the client asked for it. The outcome
 * (usage, bytes, whether it finished) is for metering.
 */
export async function relayCompletionStream(
  entry: ProviderEntry,
  body: Body,
  modelId: string,
  name: string,
  includeUsage: boolean,
  signal: AbortSignal,
): Promise<{ body: ReadableStream<Uint8Array>; finished: Promise<StreamOutcome> }> {
  const upstream = new AbortController();
  const res = await post(
    entry,
    upstreamBody(entry, body, modelId, true),
    AbortSignal.any([signal, upstream.signal]),
    false,
  );
  const encoder = new TextEncoder();
  const maxBytes = upstreamMaxBytes();
  const outcome: StreamOutcome = {
    usage: usageFrom(undefined),
    model: modelId,
    provider: entry.name,
    complete: false,
    bytes: 0,
  };
  let settle: (o: StreamOutcome) => void = () => {};
  const finished = new Promise<StreamOutcome>((resolve) => (settle = resolve));
  const reader = res.body!.getReader();
  const text = new TextDecoder();
  let size = 0;
  let gone = false;

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (data: string) => {
        if (gone) return;
        const bytes = encoder.encode(`data: ${data}\n\n`);
        outcome.bytes += bytes.byteLength;
        controller.enqueue(bytes);
      };
      const parser = createParser({
        onEvent(event) {
          if (event.data === "[DONE]") {
            outcome.complete = true;
            return;
          }
          let chunk: Body;
          try {
            chunk = JSON.parse(event.data) as Body;
          } catch {
            return;
          }
          if (chunk.error) throw new Error(String((chunk.error as Body).message ?? "the provider failed mid-stream"));
          if (typeof chunk.model === "string") outcome.model = chunk.model;
          if (chunk.usage) outcome.usage = usageFrom(chunk.usage as WireUsage);
          const choices = chunk.choices as unknown[] | undefined;
          if (chunk.usage && !choices?.length && !includeUsage) return;
          send(JSON.stringify({ ...chunk, model: name }));
        },
      });
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > maxBytes) throw tooLarge(entry.name, maxBytes);
          parser.feed(text.decode(value, { stream: true }));
        }
        parser.feed(text.decode());
        outcome.complete = true;
        send("[DONE]");
      } catch (err) {
        if (!signal.aborted)
          send(JSON.stringify({ error: { message: (err as Error).message, type: "upstream_error" } }));
        upstream.abort();
      } finally {
        if (!gone) controller.close();
        settle(outcome);
      }
    },
    cancel() {
      gone = true;
      // The client left: stop the provider's generation too (its tokens so far are still metered).
      upstream.abort();
      void reader.cancel().catch(() => {});
      settle(outcome);
    },
  });
  return { body: stream, finished };
}
