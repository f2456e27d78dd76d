import type { Readable } from "node:stream";
import { GatewayError } from "../errors.ts";

/** Default cap on one upstream body: room for a batch of base64 images, far below what would hurt the process. */
export const DEFAULT_UPSTREAM_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The operator's UPSTREAM_MAX_BYTES (validated at start-up by lib/config.ts). Read per call rather than
 * once, so an operator or a test setting it before the gateway starts is honoured; it is one lookup.
 */
export function upstreamMaxBytes(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.UPSTREAM_MAX_BYTES);
  return Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_UPSTREAM_MAX_BYTES;
}

export const tooLarge = (service: string, maxBytes: number) =>
  new GatewayError(502, `${service} sent a response larger than ${maxBytes} bytes`);

/**
 * Reads an upstream body as it streams in and stops at maxBytes (502 naming the service), so a hostile
 * or broken upstream cannot make the gateway buffer an unbounded body. A Content-Length past the cap
 * is refused before reading anything.
 */
export async function readCappedBody(res: Response, service: string, maxBytes = upstreamMaxBytes()): Promise<Buffer> {
  const declared = Number(res.headers.get("content-length"));
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge(service, maxBytes);
  }
  if (!res.body) return Buffer.alloc(0);
  try {
    return await collectCapped(res.body, service, maxBytes);
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    if ((err as Error).name === "TimeoutError")
      throw new GatewayError(504, `${service} did not finish its answer in time`);
    throw new GatewayError(502, `${service} connection failed while reading the response`);
  }
}

/**
 * A body (a web stream or Node's readable) read whole, stopping with 502 naming the service past
 * maxBytes; leaving the loop cancels the rest. A failed read is thrown as it came, for the caller to name.
 */
export async function collectCapped(
  body: AsyncIterable<Uint8Array>,
  service: string,
  maxBytes: number,
): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge(service, maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Where `streamCappedText` hands a body's text: each read as it comes, then one `end` or one `fail`. */
export type TextListener = {
  text(text: string): void;
  end(): void;
  fail(err: Error): void;
};

/**
 * An upstream body (Node's readable) read as it arrives, each read decoded as UTF-8 (a character cut
 * between reads is decoded whole) and handed on in the same turn: no promise or iterator step per read,
 * which is a relayed token's share of a stream's CPU. Past maxBytes it fails with 502 naming the
 * service; a body that errors or closes before its end fails, and so does a listener that throws. After
 * `end` or `fail` nothing more is handed on, and a failure destroys the body (aborting its request).
 */
export function streamCappedText(body: Readable, service: string, maxBytes: number, on: TextListener): void {
  const decoder = new TextDecoder();
  let size = 0;
  let over = false;
  const fail = (err: Error) => {
    if (over) return;
    over = true;
    body.destroy();
    on.fail(err);
  };
  body.on("data", (bytes: Buffer) => {
    if (over) return;
    size += bytes.byteLength;
    if (size > maxBytes) return fail(tooLarge(service, maxBytes));
    try {
      on.text(decoder.decode(bytes, { stream: true }));
    } catch (err) {
      fail(err as Error);
    }
  });
  body.on("end", () => {
    if (over) return;
    try {
      const rest = decoder.decode();
      if (rest) on.text(rest);
    } catch (err) {
      return fail(err as Error);
    }
    if (over) return;
    over = true;
    on.end();
  });
  body.on("error", (err: Error) => fail(err));
  body.on("close", () => fail(new Error("the stream closed before it ended")));
}

const cappedFetches = new Map<string, typeof fetch>();

/**
 * A fetch for clients that read bodies themselves (the AI SDK's providers): the body it returns errors
 * with 502 once more than the cap has streamed in. Streams pass through chunk by chunk, unchanged.
 */
export function cappedFetch(service: string): typeof fetch {
  let capped = cappedFetches.get(service);
  if (!capped) {
    capped = async (input, init) => {
      const res = await fetch(input, init);
      const maxBytes = upstreamMaxBytes();
      if (Number(res.headers.get("content-length")) > maxBytes) {
        await res.body?.cancel().catch(() => {});
        throw tooLarge(service, maxBytes);
      }
      if (!res.body) return res;
      let size = 0;
      const body = res.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            size += chunk.byteLength;
            if (size > maxBytes) controller.error(tooLarge(service, maxBytes));
            else controller.enqueue(chunk);
          },
        }),
      );
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    };
    cappedFetches.set(service, capped);
  }
  return capped;
}

export async function readCappedText(res: Response, service: string, maxBytes?: number): Promise<string> {
  return (await readCappedBody(res, service, maxBytes)).toString("utf8");
}

/** The first bytes of a body (an error's detail), never more: the rest is cancelled, and a failed read is "". */
export async function readTextPrefix(res: Response, maxBytes = 4096): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    return "";
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks, size).subarray(0, maxBytes).toString("utf8");
}
