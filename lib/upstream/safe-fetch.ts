import dns from "node:dns/promises";
import https from "node:https";
import net from "node:net";
import tls from "node:tls";
import { GatewayError } from "../errors.ts";
import { forbiddenAddressReason, forbiddenHostnameReason } from "./address-policy.ts";

export type Resolved = { address: string; family: 4 | 6 };
export type Resolver = (hostname: string) => Promise<Resolved[]>;

export type SafeFetchOptions = {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  userAgent: string;
  /** Resolves names; injectable so tests can play DNS tricks without a DNS server. */
  resolve?: Resolver;
  /** "host:port" origins exempt from the private-address rule (tests only; refused in production). */
  allowPrivate?: ReadonlySet<string>;
  /** Extra trusted CA certificates (PEM), added to Node's roots. */
  extraCa?: string;
  /**
   * A POST of this JSON instead of a GET, with these headers besides ours (an operator's guardrail webhook).
   * A redirect would send it again to the next hop: pass maxRedirects 0 where it must go nowhere else.
   */
  post?: { json: string; headers?: Record<string, string> };
};

export type SafeResponse = {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  url: string;
  redirects: number;
};

export const defaultResolve: Resolver = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((r) => ({
    address: r.address,
    family: r.family === 6 ? 6 : 4,
  }));

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "set-cookie",
  "set-cookie2",
  "content-length",
  "alt-svc",
  "strict-transport-security",
]);

/**
 * A socket `lookup` that answers only `target`: the address a request was checked at is the one it
 * connects to, with no second DNS answer in between (rebinding).
 */
export function pinnedLookup(target: Resolved): net.LookupFunction {
  return (_hostname, opts, callback) => {
    if (opts.all)
      (callback as (e: null, a: Resolved[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/** Parses a user's URL: HTTPS only, no credentials in it. 400 otherwise. */
export function parseUserUrl(raw: string | undefined): URL {
  if (!raw) throw new GatewayError(400, "url is required");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GatewayError(400, "url is not a valid absolute URL");
  }
  if (url.protocol !== "https:") throw new GatewayError(400, "url must use https");
  if (url.username || url.password) throw new GatewayError(400, "url must not contain credentials");
  return url;
}

/**
 * Checks a URL's host and every address its name resolves to; returns the one address to connect
 * to. The WHATWG parser has already turned decimal, hex, octal and short IPv4 forms into dotted quads.
 */
export async function checkDestination(url: URL, options: SafeFetchOptions): Promise<Resolved> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = url.port || "443";
  const exempt = options.allowPrivate?.has(`${host}:${port}`) ?? false;
  const nameReason = net.isIP(host) ? null : forbiddenHostnameReason(host);
  if (nameReason && !exempt) throw new GatewayError(403, `url not allowed: ${nameReason}`);
  let addresses: Resolved[];
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await (options.resolve ?? defaultResolve)(host);
    } catch {
      throw new GatewayError(502, `could not resolve host '${host}'`);
    }
    if (addresses.length === 0) throw new GatewayError(502, `could not resolve host '${host}'`);
  }
  if (!exempt) {
    for (const a of addresses) {
      const reason = forbiddenAddressReason(a.address);
      if (reason) throw new GatewayError(403, `url not allowed: '${host}' resolves to a ${reason} (${a.address})`);
    }
  }
  return addresses[0]!;
}

/**
 * GETs a user-supplied HTTPS URL without letting it reach private networks: every hop (redirects
 * included, at most maxRedirects) is checked, and the connection goes to the address that was
 * checked — never a second DNS answer. The body is capped while it streams in.
 */
export async function safeFetch(raw: string | undefined, options: SafeFetchOptions): Promise<SafeResponse> {
  let url = parseUserUrl(raw);
  for (let hop = 0; ; hop++) {
    const target = await checkDestination(url, options);
    const res = await requestPinned(url, target, options);
    const location = res.status >= 300 && res.status < 400 ? res.headers.location : undefined;
    if (!location) return { ...res, url: url.toString(), redirects: hop };
    if (hop >= options.maxRedirects)
      throw new GatewayError(502, `upstream redirected more than ${options.maxRedirects} times`);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new GatewayError(502, "upstream sent an invalid redirect");
    }
    if (next.protocol !== "https:")
      throw new GatewayError(403, `url not allowed: redirect to a non-HTTPS URL (${next.protocol})`);
    url = next;
  }
}

function requestPinned(
  url: URL,
  target: Resolved,
  options: SafeFetchOptions,
): Promise<Omit<SafeResponse, "url" | "redirects">> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve, reject) => {
    let req: ReturnType<typeof https.request>;
    try {
      req = https.request(
        {
          host,
          port: url.port || 443,
          path: `${url.pathname}${url.search}`,
          method: options.post ? "POST" : "GET",
          headers: {
            ...options.post?.headers,
            "user-agent": options.userAgent,
            accept: "*/*",
            "accept-encoding": "identity",
            ...(options.post && {
              "content-type": "application/json",
              "content-length": String(Buffer.byteLength(options.post.json)),
            }),
          },
          lookup: pinnedLookup(target),
          servername: net.isIP(host) ? undefined : host,
          ca: options.extraCa ? [...tls.rootCertificates, options.extraCa] : undefined,
          timeout: options.timeoutMs,
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > options.maxBytes) {
              req.destroy();
              reject(new GatewayError(502, `upstream response is larger than ${options.maxBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          res.on("end", () => {
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(res.headers)) {
              if (value === undefined || HOP_BY_HOP.has(name)) continue;
              headers[name] = Array.isArray(value) ? value.join(", ") : value;
            }
            resolve({ status: res.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
          });
          res.on("error", () => reject(new GatewayError(502, "upstream connection failed while reading the response")));
        },
      );
    } catch (err) {
      reject(new GatewayError(502, `upstream request failed: ${(err as Error).message}`));
      return;
    }
    const deadline = setTimeout(() => {
      req.destroy();
      reject(new GatewayError(504, `upstream did not answer within ${options.timeoutMs / 1000} s`));
    }, options.timeoutMs);
    req.on("close", () => clearTimeout(deadline));
    req.on("timeout", () => {
      req.destroy();
      reject(new GatewayError(504, `upstream did not answer within ${options.timeoutMs / 1000} s`));
    });
    req.on("error", (err) =>
      reject(new GatewayError(502, `upstream request failed: ${(err as NodeJS.ErrnoException).code ?? err.message}`)),
    );
    req.end(options.post?.json);
  });
}
