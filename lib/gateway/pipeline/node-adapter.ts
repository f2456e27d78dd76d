import type { IncomingMessage, ServerResponse } from "node:http";
import { GatewayError } from "../../errors.ts";
import { readDeclaredBody, utf8Text } from "../http/node-body.ts";
import { writeEventStream } from "./event-stream-node.ts";
import { bodyTooLarge, type Outcome, type Pipeline } from "./pipeline.ts";
import type { GatewayRequest } from "./request.ts";

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The pipeline on Node's own request and response: what `npm start` serves, and what the HTTP tests
 * drive over a socket. No WHATWG Request, Response or web stream is made for a request that does not
 * ask for one (a body a route reads as a form, a streamed body it answers with).
 */
export function nodeAdapter(pipeline: Pipeline, maxBodyBytes: number): NodeListener {
  return function gateway(req, res) {
    const request = new NodeRequest(req, res, maxBodyBytes);
    pipeline(request).then(
      (outcome) => writeOutcome(res, outcome, req.method === "HEAD"),
      // The pipeline answers its own errors; this is a defect in writing the answer, never a user's.
      () => failed(res),
    );
  };
}

/**
 * Node's request as the pipeline reads it. A class, not an object literal, for the reason Call is one
 * (call.ts): per-request getters in a literal kept whole requests alive in old space.
 */
class NodeRequest implements GatewayRequest {
  readonly method: string;
  readonly path: string;
  readonly search: string;
  #body: Promise<Uint8Array> | undefined;
  #signal: AbortSignal | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly maxBodyBytes: number,
  ) {
    this.method = req.method ?? "GET";
    let target = req.url ?? "/";
    if (!target.startsWith("/")) {
      try {
        const absolute = new URL(target);
        target = absolute.pathname + absolute.search;
      } catch {
        target = "/";
      }
    }
    const q = target.indexOf("?");
    this.path = q === -1 ? target : target.slice(0, q);
    this.search = q === -1 ? "" : target.slice(q + 1);
  }

  get url(): string {
    const scheme = (this.req.socket as { encrypted?: boolean } | undefined)?.encrypted ? "https" : "http";
    return `${scheme}://${this.req.headers.host || "localhost"}${this.path}${this.search ? `?${this.search}` : ""}`;
  }

  get remoteAddress(): string | undefined {
    return this.req.socket?.remoteAddress;
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  get declaredLength(): number | undefined {
    const declared = this.req.headers["content-length"];
    if (declared === undefined || this.req.headers["transfer-encoding"] !== undefined) return undefined;
    const length = Number(declared);
    return Number.isFinite(length) && length >= 0 ? length : undefined;
  }

  get hasBody(): boolean {
    const declared = this.declaredLength;
    return declared !== undefined ? declared > 0 : this.req.headers["transfer-encoding"] !== undefined;
  }

  bytes(): Promise<Uint8Array> {
    if (this.#body) return this.#body;
    const declared = this.declaredLength;
    this.#body =
      declared !== undefined ? readDeclaredBody(this.req, declared) : readChunkedBody(this.req, this.maxBodyBytes);
    return this.#body;
  }

  async text(): Promise<string> {
    return utf8Text(await this.bytes());
  }

  get signal(): AbortSignal {
    if (!this.#signal) {
      const left = new AbortController();
      this.whenClientLeaves(() => left.abort());
      this.#signal = left.signal;
    }
    return this.#signal;
  }

  whenClientLeaves(leave: () => void): void {
    const res = this.res;
    res.once("close", () => {
      if (!res.writableFinished) leave();
    });
  }
}

/** A body of undeclared length (chunked), counted as it arrives: over `max` bytes is a 413, the rest unread. */
function readChunkedBody(req: IncomingMessage, max: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners("data");
        req.resume();
        reject(bodyTooLarge(max));
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => {
      if (size <= max) resolve(new Uint8Array(Buffer.concat(chunks)));
    });
    const cutShort = () => reject(new GatewayError(400, "the request body was cut short"));
    req.once("error", cutShort);
    req.once("close", () => {
      if (!req.complete) cutShort();
    });
  });
}

/** Writes an outcome: a body with its length, events as they come, a web stream piped with backpressure. */
function writeOutcome(res: ServerResponse, outcome: Outcome, head: boolean): void {
  const { status, headers, body, events } = outcome;
  if (events) return writeEventStream(res, status, headers, events);
  if (body === null || head) {
    res.writeHead(status, headers);
    if (body instanceof ReadableStream) void body.cancel().catch(() => {});
    res.end();
    return;
  }
  if (body instanceof ReadableStream) return void pipeStream(res, status, headers, body);
  // The adapter owns the length: a handler's lower-case copy (an upstream's, say) would be a second header.
  delete headers["content-length"];
  headers["Content-Length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  res.writeHead(status, headers);
  res.end(body);
}

async function pipeStream(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  body: ReadableStream<Uint8Array>,
): Promise<void> {
  res.writeHead(status, headers);
  res.flushHeaders();
  const reader = body.getReader();
  res.once("close", () => {
    if (!res.writableFinished) void reader.cancel().catch(() => {});
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drainedOrClosed(res);
      if (res.destroyed) return;
    }
    res.end();
  } catch {
    res.destroy();
  }
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}

function failed(res: ServerResponse): void {
  if (res.headersSent) return void res.destroy();
  const body = JSON.stringify({ error: "internal server error" });
  res.writeHead(500, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}
