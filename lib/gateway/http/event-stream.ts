/** Where a stream's bytes go: what the producer writes and closes. */
export type EventSink = { enqueue(bytes: Uint8Array): void; close(): void };

/**
 * A stream not yet attached to a response: `start` writes every event to the sink and closes it, and
 * `cancel` is called instead when the client leaves first. The shape of a ReadableStream's source, so
 * in-process it becomes one unchanged.
 */
export type EventSource = { start(sink: EventSink): Promise<void> | void; cancel(): void };
