import { createParser } from "eventsource-parser";
import { streamCappedText, upstreamMaxBytes } from "../../upstream/capped-body.ts";
import type { ProviderEntry } from "../../upstream/llm-catalogue.ts";
import type { Usage } from "../chat-types.ts";
import type { EventSource } from "../../gateway/http/event-stream.ts";
import type { ChatStream, StreamOutcome } from "../chat.ts";
import type { ProviderBody } from "../provider-call.ts";
import type { CallStop } from "../../upstream/call-stop.ts";
import type { FeatureUse } from "../../usage/meter.ts";

/** One server-sent event as written to the client. */
export const sseFrame = (data: unknown, event?: string): string =>
  `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

/** A provider's mid-stream error event (OpenAI's `error` string or object, Anthropic's `{message}`) as the error to throw. */
export function streamFailure(error: unknown): Error {
  const message = typeof error === "string" ? error : (error as { message?: unknown } | undefined)?.message;
  return new Error(String(message ?? "the provider failed mid-stream"));
}

/**
 * Turns a provider's events into the client's: one of these per stream, chosen by the provider's
 * wire and the surface the client called. `event` throws on the provider's own error event.
 */
export interface EventTranslator {
  /**
   * The frames for an event read as its raw data, without parsing it, when the translator can tell
   * that is enough (a pass-through chunk carrying no usage or error); undefined to have it parsed.
   */
  raw?(data: string): string[] | undefined;
  /** Frames to send for one provider event (its data parsed from JSON, with the SSE event name if any). */
  event(data: Record<string, unknown>, name: string | undefined): string[];
  /** Frames closing the stream after the provider finished. */
  end(): string[];
  /** Frames telling the client the stream failed part way. */
  error(message: string): string[];
  usage(): Usage;
  /** The model the provider said it used, once it has. */
  model(): string | undefined;
  /** What the provider reported using beyond tokens so far (server tools, a service tier), for metering. */
  features?(): FeatureUse | undefined;
}

/**
 * A provider's event stream relayed to the client through a translator, under the upstream byte cap.
 * The outcome (usage, bytes, whether it finished) is for metering. When the client leaves, the
 * provider's generation is stopped too; its tokens so far are still metered. `stop` bounds the
 * provider's call, the relay stops it through it on a failure, and it is released when the relay ends.
 */
export function relayEvents(
  entry: ProviderEntry,
  res: ProviderBody,
  stop: CallStop,
  modelId: string,
  t: EventTranslator,
): ChatStream {
  const encoder = new TextEncoder();
  const maxBytes = upstreamMaxBytes();
  const outcome: StreamOutcome = { usage: t.usage(), model: modelId, provider: entry.name, complete: false, bytes: 0 };
  let settle: (o: StreamOutcome) => void = () => {};
  const finished = new Promise<StreamOutcome>((resolve) => (settle = resolve));
  const done = () => {
    stop.release();
    outcome.usage = t.usage();
    outcome.model = t.model() ?? modelId;
    outcome.features = t.features?.();
    settle(outcome);
  };
  let gone = false;

  const source: EventSource = {
    start(controller) {
      // The frames of one read from the provider go out as one write: a provider (or a proxy before
      // it) that delivers many events at once costs one socket write, not one per token.
      let pending = "";
      const send = (frames: string[]) => {
        for (const frame of frames) pending += frame;
      };
      const flush = () => {
        if (!gone && pending) {
          const bytes = encoder.encode(pending);
          outcome.bytes += bytes.byteLength;
          controller.enqueue(bytes);
        }
        pending = "";
      };
      const parser = createParser({
        onEvent(event) {
          const frames = t.raw?.(event.data);
          if (frames) return send(frames);
          let data: unknown;
          try {
            data = JSON.parse(event.data);
          } catch {
            // OpenAI's closing `[DONE]`, and anything else that is not an event object, carries nothing.
            return;
          }
          if (data && typeof data === "object") send(t.event(data as Record<string, unknown>, event.event));
        },
      });
      return new Promise<void>((resolve) => {
        const finish = (err?: Error) => {
          if (err === undefined) {
            outcome.complete = true;
            send(t.end());
            flush();
          } else {
            flush();
            if (!stop.clientLeft) send(t.error(err.message));
            flush();
            stop.abort();
          }
          if (!gone) controller.close();
          done();
          resolve();
        };
        streamCappedText(res, entry.name, maxBytes, {
          text(text) {
            parser.feed(text);
            flush();
          },
          end: () => finish(),
          fail: finish,
        });
      });
    },
    cancel() {
      gone = true;
      stop.leave();
      res.destroy();
      done();
    },
  };
  return { source, finished };
}
