/**
 * A request as the pipeline sees it, whichever server delivered it: Node's (node-adapter.ts, what
 * `npm start` serves) or a Fetch `Request` (fetch-adapter.ts, under `next dev` and serverless hosts).
 * Header names are asked in lower case. The body is read at most once, by whichever of `bytes` and
 * `text` is called first; both refuse a body over the gateway's cap with a 413.
 */
export interface GatewayRequest {
  readonly method: string;
  /** The path as sent (no query string), percent-encoding and all. */
  readonly path: string;
  /** The query string without its `?`, "" when there is none. */
  readonly search: string;
  /** The absolute URL (origin from the Host header). */
  readonly url: string;
  /** The socket's peer, when the server knows it (Node does; a Fetch host may not). */
  readonly remoteAddress: string | undefined;
  header(name: string): string | undefined;
  /** The body's length as declared, when it is (no Transfer-Encoding). */
  readonly declaredLength: number | undefined;
  /** Whether the request carries a body at all. */
  readonly hasBody: boolean;
  bytes(): Promise<Uint8Array>;
  text(): Promise<string>;
  /** Aborted when the client leaves before the answer is complete. Made on first use. */
  readonly signal: AbortSignal;
  /** Calls `leave` if the client leaves before the answer is complete (no AbortSignal made for it). */
  whenClientLeaves(leave: () => void): void;
}

/** The query as a schema receives it: one value as a string, a repeated name as an array. */
export function queryObject(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (!search) return query;
  for (const [name, value] of new URLSearchParams(search)) {
    const had = query[name];
    query[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return query;
}

/** One query value (the first, when repeated), without building the whole object. */
export function queryValue(search: string, name: string): string | undefined {
  if (!search || !search.includes(name)) return undefined;
  return new URLSearchParams(search).get(name) ?? undefined;
}
