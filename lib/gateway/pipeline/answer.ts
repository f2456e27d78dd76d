import type { UsageDetail } from "../http/context.ts";
import type { EventSource } from "../http/event-stream.ts";
import { JsonText } from "../http/json-text.ts";

/** A response body the adapters can write: text, bytes, nothing, or a web stream read to its end. */
export type ReplyBody = string | Uint8Array | ReadableStream<Uint8Array> | null;

/**
 * An answer other than a 200 JSON value: any status, body and headers. A streamed body may hold the
 * request's concurrency slot and its metering until `ends` settles (with the work's usage, if known).
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: ReplyBody,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly ends?: Promise<UsageDetail | void>,
  ) {}

  /** A JSON answer with a status other than 200 (201, 202), or headers of its own. */
  static json(value: unknown, status = 200, headers: Record<string, string> = {}): Reply {
    return new Reply(status, jsonText(value), { "Content-Type": "application/json", ...headers });
  }

  /** Bytes of a type (audio, a PDF, an image), with their length. */
  static bytes(data: Uint8Array, contentType: string, headers: Record<string, string> = {}): Reply {
    return new Reply(200, data, { "Content-Type": contentType, "Content-Length": String(data.byteLength), ...headers });
  }

  /** No body: 202, 204. */
  static empty(status: number, headers: Record<string, string> = {}): Reply {
    return new Reply(status, null, headers);
  }
}

/**
 * A streamed answer of server-sent events: written to the client as they come (event-stream.ts), the
 * request metered with `metered`'s usage (tokens, bytes) and its concurrency slot held until it ends.
 */
export class StreamAnswer {
  constructor(
    readonly source: EventSource,
    readonly metered: Promise<UsageDetail>,
  ) {}
}

/** A 200 JSON answer's text. */
export const jsonText = (value: unknown): string => (value instanceof JsonText ? value.text : JSON.stringify(value));
