import { createParser } from "eventsource-parser";
import { streamCappedText, upstreamMaxBytes } from "../../upstream/capped-body.ts";
import type { ProviderEntry } from "../../upstream/llm-catalogue.ts";
import type { EventSource } from "../../gateway/http/event-stream.ts";
import type { ChatStream, StreamOutcome } from "../chat-types.ts";
import type { EventTranslator } from "../wire/sse.ts";
import type { ProviderBody } from "./provider-http.ts";
import type { CallStop } from "../../upstream/call-stop.ts";

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
