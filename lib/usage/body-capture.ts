// A model call's request and answer kept for the request log, when the operator turns REQUEST_LOG_BODIES
// on (off by default: they hold what callers and models wrote). The request as validated; the answer as
// sent, a stream's events copied as they go out. Each is cut at the operator's byte cap, saying so, so a
// long conversation costs the log a bounded row.
import type { EventSource } from "../gateway/http/event-stream.ts";
import { findPii } from "../guardrails/pii.ts";
import { redact } from "../guardrails/redaction.ts";

export type RequestBodies = { request: string; response: string | null };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The marker a cut body ends with: what a reader needs to know it is not whole. */
export const cutMarker = (bytes: number) => `\n… [cut here: ${bytes.toLocaleString("en")} bytes in all]`;

/** `text` whole when it fits in `maxBytes` of UTF-8, else its first `maxBytes` and the marker. */
export function cutText(text: string, maxBytes: number): string {
  // A string of n UTF-16 units is at most 3n bytes: most bodies fit without encoding them.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = encoder.encode(text);
  if (bytes.byteLength <= maxBytes) return text;
  return decoder.decode(bytes.subarray(0, maxBytes)) + cutMarker(bytes.byteLength);
}

export class BodyCapture {
  private request: string | undefined;
  private response: string | undefined;
  private chunks: Uint8Array[] | undefined;
  private kept = 0;
  private seen = 0;

  constructor(private readonly maxBytes: number) {}

  /** The call's request, once validated. Nothing is kept for a request that never gets this far. */
  keepRequest(body: unknown): void {
    this.request = cutText(JSON.stringify(body), this.maxBytes);
  }

  /**
   * A whole answer's text (its JSON, or the error the caller was answered with). The first kept stands:
   * under a redacting guardrail it is the answer before its placeholders were put back.
   */
  keepAnswer(text: string): void {
    if (this.chunks === undefined && this.response === undefined) this.response = cutText(text, this.maxBytes);
  }

  /** The same stream, its bytes copied up to the cap as they are sent. */
  tap(source: EventSource): EventSource {
    const chunks: Uint8Array[] = (this.chunks = []);
    return {
      start: (sink) =>
        source.start({
          enqueue: (bytes) => {
            this.seen += bytes.byteLength;
            if (this.kept < this.maxBytes) {
              const part = bytes.subarray(0, this.maxBytes - this.kept);
              // A copy: the producer may reuse its buffer once the sink has it.
              chunks.push(part.slice());
              this.kept += part.byteLength;
            }
            sink.enqueue(bytes);
          },
          close: () => sink.close(),
        }),
      cancel: () => source.cancel(),
    };
  }

  /** What was kept, for the request's log row; undefined when the request never reached its handler. */
  bodies(): RequestBodies | undefined {
    if (this.request === undefined) return undefined;
    if (this.chunks === undefined) return { request: this.request, response: this.response ?? null };
    const text = decoder.decode(Buffer.concat(this.chunks));
    return { request: this.request, response: this.seen > this.kept ? text + cutMarker(this.seen) : text };
  }
}

/** A kept body as the log shows it: the personal data the guardrails' check finds replaced by placeholders ([EMAIL_1]). */
function logSafe(text: string): string {
  const findings = findPii(text);
  return findings.length === 0 ? text : redact(text, findings).text;
}

/**
 * Bodies as the request log stores and shows them, redacted whatever the key's policy: the log is read
 * by people the caller never sent them to. Run by the meter as it writes (off the request's path), and
 * on a request's page for one not yet written.
 */
export const logSafeBodies = (b: RequestBodies): RequestBodies => ({
  request: logSafe(b.request),
  response: b.response === null ? null : logSafe(b.response),
});
