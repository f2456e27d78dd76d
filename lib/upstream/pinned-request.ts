import http from "node:http";
import https from "node:https";
import net from "node:net";
import { Readable } from "node:stream";
import { GatewayError } from "../errors.ts";
import { defaultResolve, pinnedLookup, type Resolved, type Resolver } from "./safe-fetch.ts";
import { CallStop } from "./call-stop.ts";

export type PinnedInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** For the whole exchange, body included (a pull stream can take an hour). */
  timeoutMs: number;
};

/** Resolves a name once (an IP literal as itself): the one answer a pinned request then connects to. */
export async function resolveOnce(hostname: string, resolve: Resolver = defaultResolve): Promise<Resolved> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const family = net.isIP(host);
  if (family) return { address: host, family: family === 6 ? 6 : 4 };
  let answers: Resolved[];
  try {
    answers = await resolve(host);
  } catch {
    throw new GatewayError(502, `could not resolve host '${host}'`);
  }
  if (!answers[0]) throw new GatewayError(502, `could not resolve host '${host}'`);
  return answers[0];
}

/**
 * An HTTP or HTTPS request that connects to exactly `target` (an address already checked), never to
 * a second DNS answer, and does not follow redirects. Answers a web Response whose body streams.
 */
export function pinnedRequest(url: URL, target: Resolved, init: PinnedInit): Promise<Response> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const stop = new CallStop(init.timeoutMs).follow(init.signal);
  const request = url.protocol === "https:" ? https.request : http.request;
  return new Promise((resolve, reject) => {
    // No socket error code in the message: on a private network it would tell open ports from closed ones.
    const fail = () => {
      stop.release();
      if (stop.timedOut) {
        reject(new GatewayError(504, `${url.origin} did not answer within ${init.timeoutMs / 1000} s`));
      } else reject(new GatewayError(502, `${url.origin} could not be reached`));
    };
    const req = request(
      {
        host,
        port: url.port || (url.protocol === "https:" ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: init.method ?? "GET",
        headers: {
          ...init.headers,
          ...(init.body !== undefined ? { "content-length": String(Buffer.byteLength(init.body)) } : {}),
        },
        lookup: pinnedLookup(target),
        servername: net.isIP(host) ? undefined : host,
        signal: stop.signal,
        agent: false,
      },
      (res) => {
        // The exchange is over once its body is read or dropped.
        res.once("close", () => stop.release());
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
        }
        const status = res.statusCode ?? 502;
        const empty = status === 204 || status === 304 || (init.method ?? "GET") === "HEAD";
        if (empty) res.resume();
        resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, headers }));
      },
    );
    req.on("error", fail);
    req.end(init.body);
  });
}
