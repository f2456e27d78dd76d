import type { ServerResponse } from "node:http";
import type { EventSink, EventSource } from "../http/event-stream.ts";

const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  "X-Accel-Buffering": "no",
} as const;

/**
 * A text/event-stream answer fed by `source`, written to Node's socket as events come: no web stream,
 * reader or pump per event, and no wait for a second chunk before the head goes out. When the client
 * leaves first, the source is cancelled (the producer stops its upstream and meters what was sent).
 */
export function writeEventStream(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  source: EventSource,
): void {
  let ended = false;
  let written = false;
  res.writeHead(status, { ...headers, ...SSE_HEADERS });
  res.once("close", () => {
    if (ended) return;
    ended = true;
    source.cancel();
  });
  const sink: EventSink = {
    enqueue(bytes) {
      if (ended) return;
      written = true;
      res.write(bytes);
    },
    close() {
      if (ended) return;
      ended = true;
      res.end();
    },
  };
  // A producer handles its own failures (an error event, then close); one that throws anyway ends the answer.
  const broken = () => {
    if (!ended) res.destroy();
  };
  try {
    // Started at once: an event already at hand (the first part, awaited before answering) leaves with the head.
    Promise.resolve(source.start(sink)).catch(broken);
  } catch {
    broken();
  }
  // Nothing at hand yet: the head goes now, so a client sees the 200 while the provider thinks.
  if (!ended && !written) res.flushHeaders();
}

/** The same answer as a web stream, for the Fetch adapter. */
export function eventStreamBody(source: EventSource): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(source);
}

export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = SSE_HEADERS;
