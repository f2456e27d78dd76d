import type { ServerResponse } from "node:http";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";

/** Where a stream's bytes go: what the producer writes and closes. */
export type EventSink = { enqueue(bytes: Uint8Array): void; close(): void };

/**
 * A stream not yet attached to a response: `start` writes every event to the sink and closes it, and
 * `cancel` is called instead when the client leaves first. The shape of a ReadableStream's source, so
 * in-process it becomes one unchanged.
 */
export type EventSource = { start(sink: EventSink): Promise<void> | void; cancel(): void };

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
} as const;

/**
 * A 200 text/event-stream answer fed by `source`. Under Node (server.ts) the events are written to the
 * socket as they come: no web stream, reader or pump per event, and no wait for a second chunk
 * before the head goes out (@hono/node-server waits a timer tick for one when handed a ReadableStream,
 * which was most of the time a first token spent in the gateway). Headers already set on Node's
 * response (request id, rate limits) go out with the head. In-process (`app.request`) it is a
 * ReadableStream over the same source.
 */
export function eventStreamResponse(outgoing: ServerResponse | undefined, source: EventSource): Response {
  if (!outgoing) return new Response(new ReadableStream<Uint8Array>(source), { status: 200, headers: SSE_HEADERS });
  let ended = false;
  let written = false;
  outgoing.writeHead(200, SSE_HEADERS);
  outgoing.once("close", () => {
    if (ended) return;
    // The client left before the end: the producer stops its upstream and meters what was sent.
    ended = true;
    source.cancel();
  });
  const sink: EventSink = {
    enqueue(bytes) {
      if (ended) return;
      written = true;
      outgoing.write(bytes);
    },
    close() {
      if (ended) return;
      ended = true;
      outgoing.end();
    },
  };
  // A producer handles its own failures (an error event, then close); one that throws anyway ends the answer.
  const broken = () => {
    if (!ended) outgoing.destroy();
  };
  try {
    // Started at once: an event already at hand (the first part, awaited before answering) leaves with the head.
    Promise.resolve(source.start(sink)).catch(broken);
  } catch {
    broken();
  }
  // Nothing at hand yet: the head goes now, so a client sees the 200 while the provider thinks. (Not
  // `headersSent`: writeHead makes that true before anything has left.)
  if (!ended && !written) outgoing.flushHeaders();
  // @hono/node-server's mark for "answered on Node's response": made before it replaces the global
  // Response, which is why it is this shared one (a Response made here would be written again).
  return RESPONSE_ALREADY_SENT;
}
