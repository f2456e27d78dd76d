import { eventStreamBody, EVENT_STREAM_HEADERS } from "./event-stream-node.ts";
import { bodyTooLarge, type Outcome, type Pipeline } from "./pipeline.ts";
import type { GatewayRequest } from "./request.ts";

/**
 * The pipeline as a Fetch handler (`Request` in, `Response` out): the Next.js route handler under
 * `next dev`, and serverless hosts. The same steps as the Node adapter, on web objects.
 */
export function fetchAdapter(pipeline: Pipeline, maxBodyBytes: number): (request: Request) => Promise<Response> {
  return async (request) => responseOf(await pipeline(new FetchRequest(request, maxBodyBytes)), request.method);
}

class FetchRequest implements GatewayRequest {
  readonly method: string;
  readonly path: string;
  readonly search: string;
  readonly url: string;
  readonly remoteAddress = undefined;
  #body: Promise<Uint8Array> | undefined;

  constructor(
    private readonly request: Request,
    private readonly maxBodyBytes: number,
  ) {
    this.method = request.method;
    this.url = request.url;
    const url = new URL(request.url);
    // The path as sent: URL keeps percent-encoding in pathname.
    this.path = url.pathname;
    this.search = url.search.slice(1);
  }

  header(name: string): string | undefined {
    return this.request.headers.get(name) ?? undefined;
  }

  get declaredLength(): number | undefined {
    const declared = this.request.headers.get("content-length");
    if (declared === null || this.request.headers.has("transfer-encoding")) return undefined;
    const length = Number(declared);
    return Number.isFinite(length) && length >= 0 ? length : undefined;
  }

  get hasBody(): boolean {
    return this.request.body !== null && this.declaredLength !== 0;
  }

  bytes(): Promise<Uint8Array> {
    return (this.#body ??= readCapped(this.request, this.maxBodyBytes));
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  get signal(): AbortSignal {
    return this.request.signal;
  }

  whenClientLeaves(leave: () => void): void {
    this.request.signal.addEventListener("abort", leave, { once: true });
  }
}

async function readCapped(request: Request, max: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw bodyTooLarge(max);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

function responseOf(outcome: Outcome, method: string): Response {
  const headers = new Headers();
  for (const name in outcome.headers) headers.set(name, String(outcome.headers[name]));
  if (outcome.events) {
    for (const name in EVENT_STREAM_HEADERS) headers.set(name, EVENT_STREAM_HEADERS[name]!);
    return new Response(eventStreamBody(outcome.events), { status: outcome.status, headers });
  }
  const body = method === "HEAD" || outcome.status === 204 || outcome.status === 304 ? null : outcome.body;
  return new Response(body as BodyInit | null, { status: outcome.status, headers });
}
